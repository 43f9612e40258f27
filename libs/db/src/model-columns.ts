/**
 * The select list of a whole row of a model's table, each column named as the Prisma model
 * names its field, from the model's scalar fields (`Prisma.<Model>ScalarFieldEnum`): a pg
 * statement then answers the model's own type. The schema maps every field to its name in
 * snake_case (`canCreateGroupsId` → `can_create_groups_id`); a spec of each caller holds the
 * rows read so to Prisma's.
 */
export function columnsOf(fields: Record<string, string>): string {
  return Object.keys(fields)
    .map((field) => {
      const column = field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      // Quoted: some columns are SQL keywords (`order`).
      return column === field ? `"${field}"` : `"${column}" AS "${field}"`;
    })
    .join(', ');
}

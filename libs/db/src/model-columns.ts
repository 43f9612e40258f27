/**
 * The select list of a whole row of a model's table, each column named as the Prisma model
 * names its field, from the model's scalar fields (`Prisma.<Model>ScalarFieldEnum`): a pg
 * statement then answers the model's own type. The schema maps a field to its name in
 * snake_case (`canCreateGroupsId` → `can_create_groups_id`) unless `mapped` names its column
 * (a field the schema maps otherwise: `scheduledAt` → `scheduled_timestamp`); a spec of each
 * caller holds the rows read so to Prisma's.
 */
export function columnsOf<Field extends string>(fields: Record<Field, string>, mapped: Partial<Record<Field, string>> = {}): string {
  return (Object.keys(fields) as Field[])
    .map((field) => {
      const column = mapped[field] ?? field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      // Quoted: some columns are SQL keywords (`order`).
      return column === field ? `"${field}"` : `"${column}" AS "${field}"`;
    })
    .join(', ');
}

import { Prisma } from './generated/prisma/client';

/**
 * Names and addresses are compared as the unique indexes compare them: `lower(x) = lower($1)`,
 * exactly, whatever the characters. Prisma's `{ equals, mode: 'insensitive' }` compiles to
 * ILIKE, where `_` and `%` in a client's text are wildcards (`o_ner@…` matched `owner@…`), so it
 * is never used on input; these look-ups are.
 */

type Db = Pick<Prisma.TransactionClient, '$queryRaw'>;

/** Ids of the organization's accounts whose real address is `email`, whatever its case (at most one). */
export async function userIdsWithEmail(db: Db, realmId: number, email: string): Promise<number[]> {
  const rows = await db.$queryRaw<{ id: number }[]>`
    SELECT id FROM users WHERE realm_id = ${realmId} AND lower(delivery_email) = lower(${email})`;
  return rows.map((row) => row.id);
}

/**
 * Ids of the organization's channels named one of `names`, whatever the case; archived ones
 * only when `includeArchived`.
 */
export async function channelIdsNamed(db: Db, realmId: number, names: readonly string[], includeArchived = false): Promise<number[]> {
  if (names.length === 0) return [];
  const rows = await db.$queryRaw<{ id: number }[]>`
    SELECT id FROM streams
     WHERE realm_id = ${realmId} AND lower(name) IN (SELECT lower(n) FROM unnest(${[...names]}::text[]) AS n)
       ${includeArchived ? Prisma.empty : Prisma.sql`AND NOT is_archived`}`;
  return rows.map((row) => row.id);
}

/** The largest id a Postgres `integer` column holds: every table's primary key here. */
export const MAX_STORED_ID = 2_147_483_647;

/**
 * Could this be the id of a stored row? Ids from clients are checked with this before they
 * reach a query, where an out-of-range value would fail as a database error instead of being
 * simply unknown.
 */
export const isStoredId = (id: number): boolean => Number.isSafeInteger(id) && id > 0 && id <= MAX_STORED_ID;

import { Prisma, columnsOf, statement, type RealmLinkifierModel, type RealmPlaygroundModel } from '@teamchat/db';

/** `realm_linkifiers`' and `realm_playgrounds`' statements (LinkifiersRepository's reads; its writes stay on Prisma). */

/** The organization's linkifiers in the order they apply (order, then id). */
export const linkifiersOf = statement<RealmLinkifierModel, [realmId: number]>(
  'messaging.linkifiers_of',
  `SELECT ${columnsOf(Prisma.RealmLinkifierScalarFieldEnum)} FROM realm_linkifiers WHERE realm_id = $1 ORDER BY "order", id`,
);

/** The organization's code playgrounds, oldest first. */
export const playgroundsOf = statement<RealmPlaygroundModel, [realmId: number]>(
  'messaging.playgrounds_of',
  `SELECT ${columnsOf(Prisma.RealmPlaygroundScalarFieldEnum)} FROM realm_playgrounds WHERE realm_id = $1 ORDER BY id`,
);

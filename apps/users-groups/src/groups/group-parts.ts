import { isStoredId, type Prisma } from '@teamchat/db';
import { badRequest } from '@teamchat/zulip';

type Db = Pick<Prisma.TransactionClient, 'user' | 'userGroup'>;

/** Users to make members (of a group or a setting's anonymous group): active users of the organization. */
export async function checkActiveUsers(db: Db, realmId: number, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  const found = await db.user.findMany({ where: { realmId, isActive: true, id: { in: userIds.filter(isStoredId) } }, select: { id: true } });
  const missing = userIds.find((id) => !found.some((user) => user.id === id));
  if (missing !== undefined) throw badRequest(`Invalid user ID: ${missing}`);
}

/** Groups to make subgroups (of a group or a setting's anonymous group): named, active groups of the organization. */
export async function checkSubgroups(db: Db, realmId: number, subgroupIds: number[]): Promise<void> {
  if (subgroupIds.length === 0) return;
  const groups = await db.userGroup.findMany({
    where: { realmId, name: { not: null }, id: { in: subgroupIds.filter(isStoredId) } },
    select: { id: true, deactivated: true },
  });
  const missing = subgroupIds.find((id) => !groups.some((group) => group.id === id));
  if (missing !== undefined) throw badRequest(`Invalid user group ID: ${missing}`);
  if (groups.some((group) => group.deactivated)) throw badRequest('User group is deactivated.');
}

import type { AuthUser } from '@teamchat/contracts';
import { badRequest } from '@teamchat/zulip';
import type { DirectoryUser, UsersReadonlyRepository } from '../data/users.readonly.repository';

/** Zulip's `principals`: all user ids or all emails; absent means the caller. */
export async function resolvePrincipals(
  users: UsersReadonlyRepository,
  realmId: number,
  caller: AuthUser,
  principals: (number | string)[] | undefined,
): Promise<DirectoryUser[]> {
  if (!principals || principals.length === 0) {
    return users.byIds(realmId, [caller.id], () => 'No such user');
  }
  if (principals.every((p) => typeof p === 'number')) {
    return users.byIds(realmId, principals as number[], (id) => `No such user: ${id}`);
  }
  if (principals.every((p) => typeof p === 'string')) {
    return users.byEmails(realmId, principals as string[], (email) => `No such user: ${email}`);
  }
  throw badRequest('Principals must be all user IDs or all emails');
}

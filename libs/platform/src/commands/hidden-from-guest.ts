import { Realtime, type AuthUser, type RealmRef, type UserRecord } from '@teamchat/contracts';
import { isGuestRole } from '@teamchat/zulip';
import type { CallOptions, CommandClient } from './command-client';

/**
 * The people the organization's can_access_all_users_group hides from `viewer` (among `among`,
 * when given), as Zulip's "Unknown user" records: users-groups' UserAccess, the one rule, asked
 * through its `hidden_people` command. Only a guest can be restricted, so nobody else's request
 * pays the call.
 */
export async function hiddenFromGuest(
  commands: CommandClient,
  realm: RealmRef,
  viewer: AuthUser,
  requestId: string,
  { among, ...options }: { among?: number[] } & CallOptions = {},
): Promise<UserRecord[]> {
  if (!isGuestRole(viewer.role) || among?.length === 0) return [];
  return (await commands.call(Realtime.hiddenPeople, { realm, user: viewer, among, requestId }, options)).people;
}

/** Whether the organization hides any of `among` from `viewer` (see hiddenFromGuest). */
export async function hidesAnyFromGuest(commands: CommandClient, realm: RealmRef, viewer: AuthUser, among: number[], requestId: string): Promise<boolean> {
  return (await hiddenFromGuest(commands, realm, viewer, requestId, { among })).length > 0;
}

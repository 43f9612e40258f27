import { Realtime, type AuthUser, type RealmRef } from '@teamchat/contracts';
import { isGuestRole } from '@teamchat/zulip';
import type { CommandClient } from './command-client';

/**
 * Whether the organization's can_access_all_users_group hides any of `among` from `viewer`
 * (users-groups' UserAccess, the one rule, asked through its `hidden_people` command). Only a
 * guest can be restricted, so nobody else's request pays the call.
 */
export async function hidesAnyFromGuest(commands: CommandClient, realm: RealmRef, viewer: AuthUser, among: number[], requestId: string): Promise<boolean> {
  if (!isGuestRole(viewer.role) || among.length === 0) return false;
  const { people } = await commands.call(Realtime.hiddenPeople, { realm, user: viewer, among, requestId });
  return people.length > 0;
}

import { Injectable } from '@nestjs/common';
import { apiEmail, resolveSettings, type UserSettings } from '@teamchat/contracts';
import { badRequest } from '@teamchat/zulip';
import { isStoredId } from '@teamchat/db';
import { GroupsReadonlyRepository } from '../data/groups.readonly.repository';
import { MemberProfilesReadonlyRepository, type MemberProfileRow } from '../data/member-profiles.readonly.repository';
import { RealmsReadonlyRepository } from '../data/realms.readonly.repository';
import type { ColdTx } from '../data/transactions';

/** What a message shows of a person, and the settings that govern what happens to them. */
export interface MemberProfile {
  id: number;
  fullName: string;
  /** The address the API shows for them (a dummy one when their email is hidden). */
  email: string;
  deliveryEmail: string;
  avatarSource: string;
  avatarVersion: number;
  isBot: boolean;
  isActive: boolean;
  role: number;
  settings: UserSettings;
  botType?: number | null;
}

/**
 * People as messages show them, and the rules that depend on a person's settings or groups
 * (read through the read-only views of users-groups' tables).
 */
@Injectable()
export class MemberProfiles {
  constructor(
    private readonly people: MemberProfilesReadonlyRepository,
    private readonly realms: RealmsReadonlyRepository,
    private readonly groups: GroupsReadonlyRepository,
  ) {}

  /** These people's profiles; `known` ones (read with something else) are not read again. */
  async of(realmHost: string, userIds: number[], known: MemberProfileRow[] = []): Promise<Map<number, MemberProfile>> {
    const have = new Set(known.map((row) => row.id));
    const missing = [...new Set(userIds)].filter((id) => !have.has(id));
    const rows = missing.length ? [...known, ...(await this.people.rows(missing))] : known;
    return new Map(rows.map((row) => [row.id, toMemberProfile(row, realmHost)]));
  }

  /** A user's effective settings: stored, over the organization's defaults, over Zulip's. */
  async settingsOf(realmId: number, userId: number): Promise<UserSettings> {
    const { settings, realmDefaults } = await this.people.storedSettings(realmId, userId);
    return resolveSettings(realmDefaults, settings);
  }

  /** Which of these users are active accounts of the organization (as `tx`, if given, sees them). */
  async activeIds(realmId: number, userIds: number[], tx?: ColdTx): Promise<number[]> {
    return this.people.activeIds(realmId, userIds, tx);
  }

  /** Whether the user may use wildcard mentions in large channels and topics (the organization's can_mention_many_users_group). */
  async mayMentionManyUsers(realmId: number, userId: number): Promise<boolean> {
    const groupId = await this.realms.canMentionManyUsersGroupId(realmId);
    return groupId != null && (await this.groups.isMember(userId, groupId));
  }

  /**
   * The groups a message mentions by these names that the sender may mention (Zulip's
   * check_user_group_mention_allowed): "You are not allowed to mention user group" for a
   * deactivated group or one whose can_mention_group does not hold the sender. Only non-silent
   * mentions are checked; `names` may hold names of no group.
   */
  async mentionableGroups(realmId: number, names: string[]): Promise<{ id: number; name: string; deactivated: boolean; canMentionGroupId: number | null }[]> {
    return this.groups.named(realmId, names);
  }

  async checkGroupMentionsAllowed(senderId: number, groups: { name: string; deactivated: boolean; canMentionGroupId: number | null }[]): Promise<void> {
    if (groups.length === 0) return;
    const held = await this.groups.groupsHolding(
      senderId,
      groups.flatMap((group) => (group.canMentionGroupId === null ? [] : [group.canMentionGroupId])),
    );
    const refused = groups.find((group) => group.deactivated || group.canMentionGroupId === null || !held.has(group.canMentionGroupId));
    if (refused) throw badRequest(`You are not allowed to mention user group '${refused.name}'.`);
  }

  /** Whether the user is in a channel's can_send_message_group (none set: nobody). */
  async maySendTo(userId: number, canSendMessageGroupId: number | null): Promise<boolean> {
    return canSendMessageGroupId !== null && (await this.groups.isMember(userId, canSendMessageGroupId));
  }

  /** The active members of these groups, through their subgroups. */
  async groupMembers(groupIds: number[]): Promise<number[]> {
    if (groupIds.length === 0) return [];
    return [...new Set([...(await this.groups.members(groupIds)).values()].flat())];
  }

  /** Active users of the organization that a message could mention, by the names it uses. */
  async mentionable(realmId: number, names: string[], ids: number[]): Promise<{ id: number; fullName: string }[]> {
    if (names.length === 0 && ids.length === 0) return [];
    return this.people.mentionable(realmId, names, ids.filter(isStoredId));
  }
}

/** A person's row as messages show them: settings resolved over their organization's defaults, the email they are shown by. */
function toMemberProfile({ realmDefaults, settings: stored, ...user }: MemberProfileRow, realmHost: string): MemberProfile {
  const settings = resolveSettings(realmDefaults, stored);
  return { ...user, email: apiEmail(user, settings.email_address_visibility, realmHost), settings };
}

import { Injectable } from '@nestjs/common';
import { BotType, ServiceInterface, type AuthUser, type RealmRef } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { Role, badRequest } from '@teamchat/zulip';
import { ChannelsReadonlyRepository, type ChannelForBot } from '../data/channels.readonly.repository';
import { RealmGroupSettings } from '../realm-settings/realm-group-settings';
import { GroupMembershipRepository } from '../data/group-membership.repository';
import type { Transaction } from '../data/transactions';
import { UsersRepository, type UserRow } from '../data/users.repository';

export const noSuchBot = () => badRequest('No such bot');
export const insufficientPermission = () => badRequest('Insufficient permission');

/** Zulip's can_admin_user for a bot: its owner, or an administrator of its organization. */
export const mayAdminister = (caller: Pick<AuthUser, 'id' | 'role'>, bot: Pick<UserRow, 'botOwnerId'>): boolean =>
  bot.botOwnerId === caller.id || caller.role <= Role.ADMINISTRATOR;

/** Zulip's check_short_name, and the address it makes (`<short_name>-bot@<organization host>`), or "Bad name or username". */
export function botEmail(shortNameRaw: string, botDomain: string): { shortName: string; email: string } {
  const shortName = shortNameRaw.trim();
  // Python's Address(username=…) quotes what is not a dot-atom; such an address fails Zulip's form.
  if (shortName.length === 0 || !/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/.test(shortName)) {
    throw badRequest('Bad name or username');
  }
  return { shortName, email: `${shortName}-bot@${botDomain}` };
}

/** Zulip's check_url, as the parameter's validator: "<name> is not a URL". */
export function checkUrl(name: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:', 'ftp:', 'ftps:'].includes(url.protocol) || !url.hostname) throw badRequest(`${name} is not a URL`);
  return value;
}

/** Zulip's check_valid_interface_type. */
export function checkInterfaceType(value: number): number {
  if (value !== ServiceInterface.GENERIC && value !== ServiceInterface.SLACK) throw badRequest('Invalid interface type');
  return value;
}

/**
 * Who may create which bots: everything, or incoming webhook bots only, or none (Zulip's
 * allowed_bot_types, by the organization's can_create_bots_group and
 * can_create_write_only_bots_group; embedded bots are not enabled on this server).
 */
@Injectable()
export class BotCreationPolicy {
  constructor(
    private readonly realmGroupSettings: RealmGroupSettings,
    private readonly membership: GroupMembershipRepository,
  ) {}

  /** The groups of the organization's can_create_bots_group and can_create_write_only_bots_group. */
  async settingGroups(realmId: number): Promise<{ canCreateBotsGroupId: number; canCreateWriteOnlyBotsGroupId: number }> {
    const groups = await this.realmGroupSettings.groupIds(realmId, ['can_create_bots_group', 'can_create_write_only_bots_group']);
    return { canCreateBotsGroupId: groups.can_create_bots_group, canCreateWriteOnlyBotsGroupId: groups.can_create_write_only_bots_group };
  }

  async allowedBotTypes(realmId: number, userId: number): Promise<number[]> {
    const { canCreateBotsGroupId, canCreateWriteOnlyBotsGroupId } = await this.settingGroups(realmId);
    if (await this.membership.isMember(userId, canCreateBotsGroupId)) return [BotType.GENERIC, BotType.INCOMING_WEBHOOK, BotType.OUTGOING_WEBHOOK];
    if (await this.membership.isMember(userId, canCreateWriteOnlyBotsGroupId)) return [BotType.INCOMING_WEBHOOK];
    return [];
  }

  /** Zulip's check_valid_bot_type: "Invalid bot type" for a type the user may not create (or none that exists). */
  async check(realmId: number, userId: number, botType: number): Promise<void> {
    if (!(await this.allowedBotTypes(realmId, userId)).includes(botType)) throw badRequest('Invalid bot type');
  }
}

/** The bots' own rules that read the database: access to a bot, channel access, names, who administers it. */
@Injectable()
export class BotAccess {
  constructor(
    private readonly users: UsersRepository,
    private readonly channels: ChannelsReadonlyRepository,
  ) {}

  /** Zulip's access_bot_by_id: "No such bot" for anything but a bot of the organization; "Insufficient permission" unless the caller administers it. */
  async bot(realm: RealmRef, caller: AuthUser, botId: number): Promise<UserRow> {
    const bot = isStoredId(botId) ? await this.users.inRealm(realm.id, botId) : undefined;
    if (!bot || !bot.isBot) throw noSuchBot();
    if (!mayAdminister(caller, bot)) throw insufficientPermission();
    return bot;
  }

  /** Zulip's access_stream_by_name for a bot's default channel: unarchived, and readable by the caller. */
  async channel(realmId: number, caller: AuthUser, name: string): Promise<ChannelForBot> {
    const channel = await this.channels.byName(realmId, name);
    const readable = channel && (channel.inviteOnly ? await this.channels.isSubscribed(caller.id, channel.id) : caller.role !== Role.GUEST);
    if (!channel || !readable) throw badRequest(`Invalid channel name '${name}'`);
    return channel;
  }

  /**
   * Zulip's check_bot_name_available: no active account of the organization has the name.
   * `activation`: the text a reactivation answers with.
   */
  async checkNameAvailable(realmId: number, fullName: string, { activation = false, except }: { activation?: boolean; except?: number } = {}): Promise<void> {
    const name = fullName.trim();
    const taken = (await this.users.ofRealm(realmId)).some((user) => user.isActive && user.fullName === name && user.id !== except);
    if (!taken) return;
    if (activation) {
      throw badRequest(
        `There is already an active bot named "${fullName}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
      );
    }
    throw badRequest('Name is already in use!');
  }

  /**
   * Zulip's bot_owner_user_ids: who administers the bot and hears its `realm_bot` events. Its
   * owner alone when a default channel is private; otherwise also the organization's active
   * human administrators. Read through `tx` when given (after a change, in its transaction).
   */
  async administrators(
    realmId: number,
    bot: { botOwnerId: number | null; defaultSendingStreamId: number | null; defaultEventsRegisterStreamId: number | null },
    tx?: Transaction,
  ): Promise<number[]> {
    const defaults = [bot.defaultSendingStreamId, bot.defaultEventsRegisterStreamId].filter((id): id is number => id !== null);
    const channels = await this.channels.byIds(defaults, tx);
    const privateBot = [...channels.values()].some((channel) => channel.inviteOnly);
    const users = new Set<number>(bot.botOwnerId !== null ? [bot.botOwnerId] : []);
    if (!privateBot) {
      for (const user of await this.users.ofRealm(realmId, tx)) if (user.isActive && !user.isBot && user.role <= Role.ADMINISTRATOR) users.add(user.id);
    }
    return [...users].sort((a, b) => a - b);
  }
}

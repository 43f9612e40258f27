import { Injectable } from '@nestjs/common';
import type { AuthUser, UserCommand, UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { Role, avatarUrl, badRequest, type DecodedParams } from '@teamchat/zulip';
import { BotsRepository, type BotDefaults } from '../data/bots.repository';
import { onConnection } from '../data/transactions';
import { UserGroupsRepository } from '../data/user-groups.repository';
import { UsersRepository, type UserRow } from '../data/users.repository';
import { checkMemberOrAdmin } from '../groups/member-or-admin';
import { RealmDirectory } from '../realms/realm-directory';
import { checkFullName } from '../users/full-name';
import { groupMembershipEvents } from '../users/system-group-events';
import { checkMayGrant, checkRoleValue } from '../users/update-user.use-case';
import { accessChanged, administratorRequired, realmUserUpdate, type PublishedEvent } from '../users/user-admin-events';
import { toUserRecord } from '../users/user-record';
import { BotActivityEvents } from './bot-activity-events';
import { BotRecords, realmBotEvent } from './bot-records';
import { BotAccess, checkInterfaceType, checkUrl } from './bot-rules';

type Params = DecodedParams<typeof UsersGroups.updateBotParams>;
type Answer = ReturnType<typeof UsersGroups.updateBot.response.parse>;

/**
 * PATCH /bots/{bot_id} (zerver/views/users.py patch_bot_backend, zerver/actions/bots.py): a bot
 * the caller administers gets a new name, role, owner, default channels, outgoing service or
 * configuration. Every check runs before anything is written (Zulip applies each change as it
 * checks it), so a refused request changes nothing. A name the bot already has is no change.
 *
 * Announced as Zulip does: `realm_user` update to everyone for the name, role and owner;
 * `realm_bot` update of the one changed property to the bot's administrators (as they are after
 * the change); a new owner as send_bot_owner_update_events. Every change and its events commit
 * in one transaction (the outbox), the bot's row locked first.
 */
@Injectable()
export class UpdateBot {
  constructor(
    private readonly users: UsersRepository,
    private readonly bots: BotsRepository,
    private readonly groups: UserGroupsRepository,
    private readonly access: BotAccess,
    private readonly records: BotRecords,
    private readonly activity: BotActivityEvents,
    private readonly realms: RealmDirectory,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user: caller, params, requestId }: UserCommand<Params>): Promise<Answer> {
    checkMemberOrAdmin(caller);
    checkRoleValue(params.role);
    if (params.service_payload_url !== undefined) checkUrl('service_payload_url', params.service_payload_url);
    const bot = await this.access.bot(realm, caller, params.bot_id);

    // The checks, in Zulip's order.
    const fullName = params.full_name !== undefined ? checkFullName(params.full_name) : undefined;
    const newName = fullName !== undefined && fullName !== bot.fullName ? fullName : undefined;
    if (newName !== undefined) await this.access.checkNameAvailable(realm.id, newName);
    const role = params.role !== undefined && params.role !== bot.role ? params.role : undefined;
    if (role !== undefined) {
      checkMayGrant(caller, bot.role, role);
      if (caller.role > Role.ADMINISTRATOR) throw administratorRequired();
    }
    const owner = params.bot_owner_id !== undefined ? await this.checkOwner(realm.id, params.bot_owner_id) : undefined;
    const defaults: BotDefaults = {};
    if (params.default_sending_stream !== undefined) defaults.defaultSendingStreamId = await this.channelId(realm.id, caller, params.default_sending_stream);
    if (params.default_events_register_stream !== undefined) {
      defaults.defaultEventsRegisterStreamId = await this.channelId(realm.id, caller, params.default_events_register_stream);
    }
    if (params.default_all_public_streams !== undefined) defaults.defaultAllPublicStreams = params.default_all_public_streams;
    if (params.service_interface !== undefined) checkInterfaceType(params.service_interface);

    const everyone = await this.users.activeOfRealm(realm.id);
    const everyoneIds = everyone.map((user) => user.id);

    // Every change in one transaction with its events, each read as it stands after that change.
    await this.outbox.runCold(async (tx) => {
      const pgTx = onConnection(tx);
      const published: PublishedEvent[] = [];
      const botEvent = async (change: Record<string, unknown>) => {
        const [details] = await this.bots.withDetails(realm.id, { ids: [bot.id] }, tx);
        return realmBotEvent(realm.id, await this.access.administrators(realm.id, details, tx), 'update', { user_id: bot.id, ...change });
      };
      await this.users.lock(bot.id, pgTx);

      if (newName !== undefined || role !== undefined) {
        if (newName !== undefined) await this.users.setFullName(bot.id, newName, pgTx);
        let groupEvents: PublishedEvent[] = [];
        if (role !== undefined) {
          const before = await this.groups.directNamedGroupsOf(bot.id, pgTx);
          await this.users.setRole(bot.id, role, pgTx);
          groupEvents = groupMembershipEvents(realm.id, bot.id, before, await this.groups.directNamedGroupsOf(bot.id, pgTx), everyoneIds);
        }
        if (newName !== undefined) published.push(realmUserUpdate(realm.id, everyoneIds, bot.id, { full_name: newName }), await botEvent({ full_name: newName }));
        if (role !== undefined) published.push(realmUserUpdate(realm.id, everyoneIds, bot.id, { role }), ...groupEvents);
        published.push(accessChanged(realm.id, bot.id, false));
      }
      if (owner !== undefined && owner.id !== bot.botOwnerId) {
        await this.users.setBotOwner(bot.id, owner.id, pgTx);
        published.push(...(await this.activity.ownerChanged(realm.id, bot.id, bot.botOwnerId, owner.id, tx)));
      }
      if (Object.keys(defaults).length > 0) {
        await this.bots.setDefaults(bot.id, defaults, tx);
        const record = await this.records.one(realm.id, bot.id, tx);
        if ('defaultSendingStreamId' in defaults) published.push(await botEvent({ default_sending_stream: record.default_sending_stream }));
        if ('defaultEventsRegisterStreamId' in defaults) published.push(await botEvent({ default_events_register_stream: record.default_events_register_stream }));
        if ('defaultAllPublicStreams' in defaults) published.push(await botEvent({ default_all_public_streams: record.default_all_public_streams }));
      }
      if (params.service_payload_url !== undefined || params.service_interface !== undefined) {
        const service = await this.bots.updateService(bot.id, { baseUrl: params.service_payload_url, interface: params.service_interface }, tx);
        if (service) published.push(await botEvent({ services: [{ base_url: service.baseUrl, interface: service.interface, token: service.token }] }));
      }
      if (params.config_data !== undefined) {
        const configData = await this.bots.mergeConfigData(bot.id, params.config_data, tx);
        published.push(await botEvent({ services: [{ config_data: configData }] }));
      }
      return { value: undefined, events: published };
    }, requestId);

    const record = await this.records.one(realm.id, bot.id);
    const ownerRow = record.owner_id !== null ? await this.users.inRealm(realm.id, record.owner_id) : undefined;
    const stored = (await this.users.inRealm(realm.id, bot.id))!;
    return {
      full_name: record.full_name,
      avatar_url: avatarUrl(stored, { realmId: realm.id })!,
      service_interface: params.service_interface ?? null,
      service_payload_url: params.service_payload_url ?? null,
      config_data: params.config_data ?? null,
      default_sending_stream: record.default_sending_stream,
      default_events_register_stream: record.default_events_register_stream,
      default_all_public_streams: record.default_all_public_streams,
      ...(ownerRow ? { bot_owner: this.addressOf(ownerRow, caller, realm.subdomain) } : {}),
    };
  }

  /** Zulip's checks of a new owner: an active human of the organization. */
  private async checkOwner(realmId: number, ownerId: number): Promise<UserRow> {
    const [owner] = await this.users.ofRealmByIds(realmId, [ownerId].filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2147483647));
    if (!owner) throw badRequest('Failed to change owner, no such user');
    if (!owner.isActive) throw badRequest('Failed to change owner, user is deactivated');
    if (owner.isBot) throw badRequest("Failed to change owner, bots can't own other bots");
    return owner;
  }

  /** A default channel by name ("" for none). */
  private async channelId(realmId: number, caller: AuthUser, name: string): Promise<number | null> {
    return name === '' ? null : (await this.access.channel(realmId, caller, name)).id;
  }

  private addressOf(owner: UserRow, viewer: AuthUser, subdomain: string): string {
    return toUserRecord(owner, { viewer, realmHost: this.realms.hostnameOf(subdomain), clientGravatar: false }).email;
  }
}

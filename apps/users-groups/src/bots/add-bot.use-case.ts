import { Injectable } from '@nestjs/common';
import { BotType, type UserCommand, type UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { avatarUrl, badRequest, type DecodedParams } from '@teamchat/zulip';
import { generateApiKey } from '../auth/api-keys';
import { checkMemberOrAdmin } from '../groups/member-or-admin';
import { BotsRepository } from '../data/bots.repository';
import { UsersRepository } from '../data/users.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { CreateUser } from '../users/create-user.use-case';
import { checkFullName } from '../users/full-name';
import { UserCreatedEvents } from '../users/user-created-events';
import { BotRecords, realmBotAdd } from './bot-records';
import { BotAccess, BotCreationPolicy, botEmail, checkInterfaceType, checkUrl } from './bot-rules';

type Params = DecodedParams<typeof UsersGroups.addBotParams>;

/**
 * POST /bots (zerver/views/users.py add_bot_backend): a member or administrator creates a bot
 * they own, checked in Zulip's order (short name, full name, embedded bots, address in use, name
 * in use, the bot types the caller may create, interface, default channels the caller can read,
 * an incoming webhook's integration) before anything is written. The bot's address is
 * `<short_name>-bot@<organization host>`; an outgoing webhook bot gets its service (the payload
 * URL, the interface and a new token; named `service_name`, else the short name).
 *
 * Announced as Zulip's do_create_user and notify_created_bot: `realm_user` add to everyone,
 * `user_group` add_members, then `realm_bot` add to the bot's administrators, written with the
 * bot in one transaction (the outbox).
 */
@Injectable()
export class AddBot {
  constructor(
    private readonly users: UsersRepository,
    private readonly bots: BotsRepository,
    private readonly create: CreateUser,
    private readonly realms: RealmDirectory,
    private readonly access: BotAccess,
    private readonly policy: BotCreationPolicy,
    private readonly records: BotRecords,
    private readonly outbox: EventOutbox,
    private readonly created: UserCreatedEvents,
  ) {}

  async execute({ realm, user: caller, params, requestId }: UserCommand<Params>): Promise<{
    user_id: number;
    api_key: string;
    avatar_url: string;
    default_sending_stream: string | null;
    default_events_register_stream: string | null;
    default_all_public_streams: boolean;
  }> {
    checkMemberOrAdmin(caller);
    const payloadUrl = params.payload_url === '' ? '' : checkUrl('payload_url', params.payload_url);
    const { shortName, email } = botEmail(params.short_name, this.realms.hostnameOf(realm.subdomain));
    const botType = params.bot_type;
    const serviceName = botType !== BotType.INCOMING_WEBHOOK ? params.service_name || shortName : params.service_name;
    const fullName = checkFullName(params.full_name);
    if (botType === BotType.EMBEDDED) throw badRequest('Embedded bots are not enabled.');
    if ((await this.users.withDeliveryEmail(realm.id, email)).length > 0) throw badRequest('Username already in use');
    await this.access.checkNameAvailable(realm.id, fullName);
    await this.policy.check(realm.id, caller.id, botType);
    checkInterfaceType(params.interface_type);
    const sending = params.default_sending_stream !== undefined ? await this.access.channel(realm.id, caller, params.default_sending_stream) : null;
    const register =
      params.default_events_register_stream !== undefined ? await this.access.channel(realm.id, caller, params.default_events_register_stream) : null;
    // Zulip checks an incoming webhook's configuration against its integration; this server has none.
    if (botType === BotType.INCOMING_WEBHOOK && serviceName) throw badRequest(`Invalid integration '${serviceName}'.`);

    // The realm_bot add's audience, read before the transaction: the owner, the default channels
    // and the organization's administrators are what they are now.
    const administrators = await this.access.administrators(realm.id, {
      botOwnerId: caller.id,
      defaultSendingStreamId: sending?.id ?? null,
      defaultEventsRegisterStreamId: register?.id ?? null,
    });
    const { row, record } = await this.outbox.runCold(async (tx) => {
      const bot = await this.create.execute({ realmId: realm.id, email, fullName, isBot: true, botType, botOwnerId: caller.id }, tx);
      await this.bots.setUp(
        bot.id,
        {
          defaultSendingStreamId: sending?.id ?? null,
          defaultEventsRegisterStreamId: register?.id ?? null,
          defaultAllPublicStreams: params.default_all_public_streams ?? false,
          configData: botType === BotType.INCOMING_WEBHOOK ? params.config_data : {},
          service:
            botType === BotType.OUTGOING_WEBHOOK
              ? { name: serviceName!, baseUrl: payloadUrl, interface: params.interface_type, token: generateApiKey() }
              : undefined,
        },
        tx,
      );
      const { row, events } = await this.created.of(realm, bot.id, tx);
      const record = await this.records.one(realm.id, bot.id, tx);
      return { value: { row, record }, events: [...events, realmBotAdd(realm.id, administrators, record)] };
    }, requestId);
    return {
      user_id: row.id,
      api_key: record.api_key,
      avatar_url: avatarUrl(row, { realmId: realm.id })!,
      default_sending_stream: record.default_sending_stream,
      default_events_register_stream: record.default_events_register_stream,
      default_all_public_streams: record.default_all_public_streams,
    };
  }
}

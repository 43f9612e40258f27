import 'reflect-metadata';
import { CHANNEL_PERMISSION_SETTING_NAMES, type AuthUser, type RealmInfo } from '@teamchat/contracts';
import { EventOutbox, OutboxRelay, openDatabase, type DatabaseConnections } from '@teamchat/db';
import { CommandClient, EventBus, createLogger, type AppConfig } from '@teamchat/platform';
import { ChannelPermissions } from '../channel-administration/channel-permissions';
import { ChannelCreation } from '../channels/channel-creation';
import { ChannelStatsReader } from '../channels/channel-stats';
import { Subscribe } from '../channels/subscribe.use-case';
import { ChannelFoldersRepository } from '../data/channel-folders.repository';
import { ChannelStatsRepository } from '../data/channel-stats.repository';
import { ChannelsRepository } from '../data/channels.repository';
import { GroupsReadonlyRepository } from '../data/groups.readonly.repository';
import { MessagesRepository } from '../data/messages.repository';
import { SubscriptionsRepository } from '../data/subscriptions.repository';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { SubscribeToDefaultChannels } from '../default-channels/subscribe-to-default-channels.use-case';

/**
 * messaging's use cases for the admin command line (tools/admin), built outside Nest on the
 * service's own repositories: the one entry the command line takes into this service. Changes
 * publish the same events as the API, so running clients learn of them; the event bus connects
 * to NATS only when a change needs it (no permission groups are asked for, so the command
 * client never connects).
 */
export class MessagingAdmin {
  private readonly channels: ChannelsRepository;
  private events?: EventBus;
  private outbox?: EventOutbox;

  private constructor(
    private readonly db: DatabaseConnections,
    private readonly config: AppConfig,
  ) {
    this.channels = new ChannelsRepository(db.pg, db.prisma);
  }

  static open(config: AppConfig): MessagingAdmin {
    return new MessagingAdmin(openDatabase(config.DATABASE_URL), config);
  }

  /** A new user joins the organization's default channels (messaging's rule); the names of those joined. */
  async subscribeToDefaultChannels(user: AuthUser, requestId: string): Promise<string[]> {
    if ((await this.channels.defaultIds(user.realmId)).length === 0) return [];
    return new SubscribeToDefaultChannels(this.channels, new UsersReadonlyRepository(this.db.pg), await this.subscribe()).execute(user, requestId);
  }

  /**
   * Creates a channel as `creator` would through POST /users/me/subscriptions (the same rules),
   * subscribing them and `others` (addresses).
   */
  async createChannel(realm: RealmInfo, creator: AuthUser, channel: { name: string; description?: string; private: boolean; others: string[] }, requestId: string) {
    const result = await (await this.subscribe()).execute({
      realm,
      user: creator,
      requestId,
      params: {
        subscriptions: [{ name: channel.name, description: channel.description }],
        principals: channel.others.length ? [creator.deliveryEmail, ...channel.others] : undefined,
        authorization_errors_fatal: true,
        announce: false,
        invite_only: channel.private,
        is_web_public: false,
        is_default_stream: false,
        history_public_to_subscribers: undefined,
        folder_id: undefined,
        ...(Object.fromEntries(CHANNEL_PERMISSION_SETTING_NAMES.map((setting) => [setting, undefined])) as Record<
          (typeof CHANNEL_PERMISSION_SETTING_NAMES)[number],
          undefined
        >),
      },
    });
    const [id] = await this.channels.idsNamed(realm.id, [channel.name.trim()]);
    const created = id === undefined ? null : await this.channels.findInRealm(id, realm.id);
    return created && { stream_id: created.id, name: created.name, invite_only: created.inviteOnly, subscribed: result.subscribed };
  }

  async close(): Promise<void> {
    // The outbox rows of what was published go first (left behind, a relay would publish them again, and JetStream drop them).
    await this.outbox?.beforeApplicationShutdown();
    await Promise.all([this.events?.onApplicationShutdown(), this.db.close()]);
  }

  /** messaging's subscription path, wired as the service wires it, with the event bus connected. */
  private async subscribe(): Promise<Subscribe> {
    const { pg, prisma } = this.db;
    this.outbox ??= await this.openOutbox();
    const groups = new GroupsReadonlyRepository(pg);
    const subscriptions = new SubscriptionsRepository(pg, prisma);
    return new Subscribe(
      this.channels,
      subscriptions,
      new MessagesRepository(pg, prisma),
      new UsersReadonlyRepository(pg),
      new ChannelStatsReader(new ChannelStatsRepository(pg), groups),
      this.outbox,
      new ChannelPermissions(this.channels, subscriptions, groups),
      new ChannelCreation(new ChannelFoldersRepository(prisma, pg), new CommandClient(this.config)),
    );
  }

  /** The outbox changes write their events to, published through the event bus (connected here). */
  private async openOutbox(): Promise<EventOutbox> {
    const logger = createLogger('admin-cli', 'warn');
    this.events = new EventBus(this.config, logger);
    await this.events.onModuleInit();
    // Its relay is never started: it only serves the sweeps this outbox's own writes may need.
    return new EventOutbox(this.db.pg, this.events, logger, this.db.prisma, this.config, new OutboxRelay(this.db.pg, this.events, this.config, logger));
  }
}

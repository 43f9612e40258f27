import { Injectable } from '@nestjs/common';
import { CHANNEL_PERMISSION_SETTING_NAMES, UsersGroups, type ApiCommand, type Messaging, type SubscribeResult } from '@teamchat/contracts';
import { type Prisma, PrismaService, queryableOf, type StreamModel, type SubscriptionModel } from '@teamchat/db';
import { CommandClient, EventBus } from '@teamchat/platform';
import { Role, badRequest, type DecodedParams } from '@teamchat/zulip';
import { UserDirectoryReadonly, type DirectoryUser } from '../core/user-directory.readonly';
import { ChannelPermissions } from '../channel-administration/channel-permissions';
import { checkFolderForChannel } from '../channel-folders/folder-for-channel';
import { renderDescription } from './channel-description';
import { CHANNEL_PERMISSION_SETTINGS } from './channel-permission-settings';
import { channelAudience, channelCreated, peerEvents, subscribersOf, subscriptionEvent, type PendingEvent } from './channel-events';
import { toChannelRecord, toSubscriptionRecord, type ChannelStats } from './channel-record';
import { CHANNEL_COLORS, canJoinChannel, canSeeChannel, checkChannelDescription, checkChannelName } from './channel-rules';
import { ChannelStatsReader } from './channel-stats';
import { resolvePrincipals } from './principals';

type Params = DecodedParams<typeof Messaging.subscribeParams>;

/**
 * POST /users/me/subscriptions (zerver/views/streams.py add_subscriptions_backend): creates
 * the channels that do not exist, then subscribes the principals (the caller by default).
 *
 * Once committed, the events of Zulip's create_stream_if_needed and bulk_add_subscriptions, in
 * that order: `stream` create for each new channel (to everyone who can see it) and for each
 * existing channel to the new subscribers who could not see it before (guests on a public
 * channel, non-administrators on a private one); `subscription` add to each newly subscribed
 * user; `peer_add` to everyone else who can see the channel.
 *
 * Without an event bus (the admin command line builds this use case by hand) nothing is published.
 */
@Injectable()
export class Subscribe {

  constructor(
    private readonly prisma: PrismaService,
    private readonly users: UserDirectoryReadonly,
    private readonly stats: ChannelStatsReader,
    private readonly events: EventBus,
    private readonly access: ChannelPermissions,
    private readonly commands: CommandClient,
  ) {}

  /**
   * The folder and permission groups asked for the channels this request creates, checked by
   * their own rules (the folder's; users-groups stores the groups); unset ones are left to the
   * database's defaults.
   */
  private async creationSettings(realmId: number, params: Params): Promise<Partial<StreamModel>> {
    const settings: Partial<StreamModel> = {};
    if (params.folder_id !== undefined && params.folder_id !== null) {
      await checkFolderForChannel(this.prisma, realmId, params.folder_id);
      settings.folderId = params.folder_id;
    }
    for (const setting of CHANNEL_PERMISSION_SETTING_NAMES) {
      const value = params[setting];
      if (value === undefined) continue;
      const config = CHANNEL_PERMISSION_SETTINGS[setting];
      const { groupId } = await this.commands.call(UsersGroups.resolveGroupSetting, {
        realmId,
        setting,
        restrictions: { allowEveryone: config.allowEveryone, allowNobody: true, allowOwners: true },
        change: { new: value },
        current: null,
      });
      settings[config.column] = groupId;
    }
    return settings;
  }

  async execute({ realm, user, params, requestId }: ApiCommand<Params>): Promise<SubscribeResult> {
    const caller = user!;
    const requests = params.subscriptions.map((request) => ({
      name: checkChannelName(request.name),
      description: checkChannelDescription(request.description),
    }));
    const principals = await resolvePrincipals(this.users, realm.id, caller, params.principals);
    const othersIncluded = principals.some((p) => p.id !== caller.id);
    if (othersIncluded && caller.role === Role.GUEST) throw badRequest('Insufficient permission');
    if (params.is_web_public && caller.role > Role.ADMINISTRATOR) throw badRequest('Insufficient permission');

    const existing = await this.prisma.stream.findMany({
      where: { realmId: realm.id, isArchived: false, OR: requests.map((r) => ({ name: { equals: r.name, mode: 'insensitive' as const } })) },
      include: { subscriptions: { where: { userId: caller.id, active: true }, select: { id: true } } },
    });
    const byName = new Map(existing.map((channel) => [channel.name.toLowerCase(), channel]));
    const toCreate = requests.filter((r) => !byName.has(r.name.toLowerCase()));
    if (toCreate.length > 0 && caller.role === Role.GUEST) throw badRequest('Insufficient permission');

    const unauthorized: string[] = [];
    for (const channel of existing) {
      if (canJoinChannel(channel, caller, channel.subscriptions.length > 0)) continue;
      // A private channel: adding others takes its can_add_subscribers_group, joining it can_subscribe_group.
      const permission = othersIncluded ? 'can_add_subscribers_group' : 'can_subscribe_group';
      if (channel.inviteOnly && (await this.access.may(caller, channel, permission))) continue;
      unauthorized.push(channel.name);
    }
    if (unauthorized.length > 0 && params.authorization_errors_fatal) {
      throw badRequest(`Unable to access channel (${unauthorized[0]}).`);
    }

    const creationSettings = toCreate.length > 0 ? await this.creationSettings(realm.id, params) : {};
    const inviteOnly = params.invite_only;
    const historyPublic = inviteOnly ? (params.history_public_to_subscribers ?? false) : true;
    const audience = await this.users.activeUsers(realm.id);
    const { result, events } = await this.prisma.$transaction(async (tx) => {
      const channels = [...existing.filter((c) => !unauthorized.includes(c.name))];
      const created: StreamModel[] = [];
      const added: Added[] = [];
      for (const request of toCreate) {
        const channel = await tx.stream.create({
          data: {
            realmId: realm.id,
            name: request.name,
            description: request.description,
            renderedDescription: renderDescription(request.description),
            inviteOnly,
            isWebPublic: params.is_web_public,
            historyPublicToSubscribers: historyPublic,
            creatorId: caller.id,
            ...creationSettings,
          },
          include: { subscriptions: { where: { id: -1 }, select: { id: true } } },
        });
        channels.push(channel);
        created.push(channel);
      }
      const newest = await tx.message.aggregate({ where: { realmId: realm.id }, _max: { id: true } });
      const subscribed: Record<string, string[]> = {};
      const already: Record<string, string[]> = {};
      for (const principal of principals) {
        const current = await tx.subscription.findMany({ where: { userId: principal.id, active: true }, select: { streamId: true } });
        const active = new Set(current.map((s) => s.streamId));
        let colorIndex = current.length;
        for (const channel of channels) {
          const target = active.has(channel.id) ? already : subscribed;
          (target[String(principal.id)] ??= []).push(channel.name);
          if (active.has(channel.id)) continue;
          const subscription = await tx.subscription.upsert({
            where: { userId_streamId: { userId: principal.id, streamId: channel.id } },
            create: {
              userId: principal.id,
              streamId: channel.id,
              color: CHANNEL_COLORS[colorIndex++ % CHANNEL_COLORS.length],
              subscribedAfterMessageId: newest._max.id ?? 0,
            },
            update: { active: true, subscribedAfterMessageId: newest._max.id ?? 0, dateSubscribed: new Date() },
          });
          added.push({ user: principal, channel, subscription });
        }
      }
      return {
        result: { subscribed, already_subscribed: already, ...(unauthorized.length ? { unauthorized } : {}) },
        events: added.length > 0 ? await this.additionEvents(tx, realm.id, created, added, audience) : [],
      };
    });
    await this.events.publishAll(events, requestId);
    return result;
  }

  /** Built inside the transaction, so the subscriber lists include its own writes. */
  private async additionEvents(
    tx: Prisma.TransactionClient,
    realmId: number,
    created: StreamModel[],
    added: Added[],
    audience: DirectoryUser[],
  ): Promise<PendingEvent[]> {
    const byChannel = new Map<number, Added[]>();
    for (const entry of added) byChannel.set(entry.channel.id, [...(byChannel.get(entry.channel.id) ?? []), entry]);
    const channels = [...byChannel.values()].map((entries) => entries[0].channel);
    const subscribers = await subscribersOf(tx, channels.map((c) => c.id), audience);
    const recent = await this.stats.of(channels, queryableOf(tx));
    const subscribersSet = (channelId: number) => new Set(subscribers.get(channelId) ?? []);
    // Counted like the `subscribers` list next to it: active users only, as Zulip counts.
    const stats = (channelId: number): ChannelStats => ({
      ...recent.get(channelId)!,
      subscriberCount: subscribers.get(channelId)!.length,
    });
    const events: PendingEvent[] = [];

    // The record a `stream` create carries is the channel before this request's subscriptions
    // (a new one has none, as in Zulip); the add and peer_add events that follow carry them.
    const before = (channel: StreamModel) =>
      toChannelRecord(channel, { ...stats(channel.id), subscriberCount: stats(channel.id).subscriberCount - byChannel.get(channel.id)!.length });
    const createdIds = new Set(created.map((c) => c.id));
    for (const channel of created) {
      events.push(channelCreated(realmId, channelAudience(channel, audience, subscribersSet(channel.id)), before(channel)));
    }
    for (const channel of channels.filter((c) => !createdIds.has(c.id))) {
      const newlyVisible = byChannel
        .get(channel.id)!
        .filter(({ user }) => !canSeeChannel(channel, user, false))
        .map(({ user }) => user.id)
        .sort((a, b) => a - b);
      if (newlyVisible.length > 0) events.push(channelCreated(realmId, newlyVisible, before(channel)));
    }

    const byUser = new Map<number, Added[]>();
    for (const entry of added) byUser.set(entry.user.id, [...(byUser.get(entry.user.id) ?? []), entry]);
    for (const [userId, entries] of byUser) {
      const subscriptions = entries
        .map(({ channel, subscription }) => toSubscriptionRecord(channel, stats(channel.id), subscription, subscribers.get(channel.id)!))
        .sort((a, b) => a.name.localeCompare(b.name));
      events.push(subscriptionEvent(realmId, [userId], { op: 'add', subscriptions }));
    }

    const changes = [...byChannel.values()].map((entries) => ({
      channel: entries[0].channel,
      altered: entries.map(({ user }) => user.id),
      subscribers: subscribersSet(entries[0].channel.id),
    }));
    return [...events, ...peerEvents('peer_add', realmId, changes, audience)];
  }
}

/** A subscription this request created or reactivated. */
interface Added {
  user: DirectoryUser;
  channel: StreamModel;
  subscription: SubscriptionModel;
}

export type { DirectoryUser };

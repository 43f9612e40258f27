import { Injectable } from '@nestjs/common';
import type { UserCommand, AuthUser, Messaging, SubscribeResult } from '@teamchat/contracts';
import { EventOutbox, type StreamModel, type SubscriptionModel } from '@teamchat/db';
import { Role, badRequest, type DecodedParams } from '@teamchat/zulip';
import { ChannelsRepository } from '../data/channels.repository';
import { MessagesRepository } from '../data/messages.repository';
import { SubscriptionsRepository } from '../data/subscriptions.repository';
import type { ColdTx } from '../data/transactions';
import { UsersReadonlyRepository, type DirectoryUser } from '../data/users.readonly.repository';
import { ChannelPermissions } from '../channel-administration/channel-permissions';
import { defaultChannelsEvent } from '../default-channels/default-channels';
import {
  ChannelCreation,
  channelAlreadyExists,
  checkChannelCreation,
  isDuplicateChannelName,
  type ChannelCreationOptions,
  type NewChannel,
} from './channel-creation';
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
 * With the writes (one transaction, the outbox) the events of Zulip's create_stream_if_needed
 * and bulk_add_subscriptions, published once committed, in that order: `stream` create for each new channel (to everyone who can see it) and for each
 * existing channel to the new subscribers who could not see it before (guests on a public
 * channel, non-administrators on a private one); `subscription` add to each newly subscribed
 * user; `peer_add` to everyone else who can see the channel.
 */
@Injectable()
export class Subscribe {

  constructor(
    private readonly channelsRepository: ChannelsRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly messages: MessagesRepository,
    private readonly users: UsersReadonlyRepository,
    private readonly stats: ChannelStatsReader,
    private readonly outbox: EventOutbox,
    private readonly access: ChannelPermissions,
    private readonly creation: ChannelCreation,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<SubscribeResult> {
    const caller = user;
    const channels = params.subscriptions.map((request) => ({
      name: checkChannelName(request.name),
      description: checkChannelDescription(request.description),
    }));
    const principals = await resolvePrincipals(this.users, realm.id, caller, params.principals);
    const othersIncluded = principals.some((p) => p.id !== caller.id);
    if (othersIncluded && caller.role === Role.GUEST) throw badRequest('Insufficient permission');
    const { created: _created, ...result } = await this.run({
      realmId: realm.id,
      caller,
      channels,
      principals,
      othersIncluded,
      options: params,
      authorizationErrorsFatal: params.authorization_errors_fatal,
      requestId,
    });
    return result;
  }

  /**
   * Creates the named channels that do not exist (by the one creation rule, ChannelCreation) and
   * subscribes the principals to all of them. With `mustCreate` (POST /channels/create) a
   * channel of that name existing, archived or not, is CHANNEL_ALREADY_EXISTS.
   */
  async run(input: SubscribeInput): Promise<SubscribeResult & { created: number[] }> {
    const { realmId, caller, principals, othersIncluded, options } = input;
    const existing = await this.channelsRepository.withCallerSubscription(
      realmId,
      await this.channelsRepository.idsNamed(realmId, input.channels.map((r) => r.name), input.mustCreate),
      caller.id,
    );
    if (input.mustCreate && existing.length > 0) throw channelAlreadyExists(existing[0].name);
    const byName = new Map(existing.map((channel) => [channel.name.toLowerCase(), channel]));
    // A new account joining its invitation's channels creates none (a name gone meanwhile is skipped).
    const toCreate = input.asNewUser ? [] : input.channels.filter((r) => !byName.has(r.name.toLowerCase()));
    if (toCreate.length > 0) checkChannelCreation(caller, options);

    const unauthorized: string[] = [];
    for (const channel of existing) {
      if (input.asNewUser || canJoinChannel(channel, caller, channel.subscriptions.length > 0)) continue;
      // A private channel: adding others takes its can_add_subscribers_group, joining it can_subscribe_group.
      const permission = othersIncluded ? 'can_add_subscribers_group' : 'can_subscribe_group';
      if (channel.inviteOnly && (await this.access.may(caller, channel, permission))) continue;
      unauthorized.push(channel.name);
    }
    if (unauthorized.length > 0 && input.authorizationErrorsFatal) {
      throw badRequest(`Unable to access channel (${unauthorized[0]}).`);
    }

    // A color asked for (PATCH /users/me/subscriptions' `add`) is the new subscription's.
    const colors = new Map(input.channels.flatMap((r) => (r.color !== undefined ? [[r.name.toLowerCase(), r.color] as const] : [])));
    const creationSettings = toCreate.length > 0 ? await this.creation.settings(realmId, options) : {};
    const audience = await this.users.activeUsers(realmId);
    const transaction = this.outbox.runCold(async (tx) => {
      const channels = [...existing.filter((c) => !unauthorized.includes(c.name))];
      const created: StreamModel[] = [];
      const added: Added[] = [];
      for (const request of toCreate) {
        const channel = await this.channelsRepository.create(this.creation.row(realmId, caller.id, request, options, creationSettings), tx);
        channels.push(channel);
        created.push(channel);
      }
      const newest = (await this.messages.newestIdInRealm(realmId, tx)) ?? 0;
      const subscribed: Record<string, string[]> = {};
      const already: Record<string, string[]> = {};
      for (const principal of principals) {
        const current = await this.subscriptions.activeChannelIdsOf(principal.id, tx);
        const active = new Set(current);
        let colorIndex = current.length;
        for (const channel of channels) {
          const target = active.has(channel.id) ? already : subscribed;
          (target[String(principal.id)] ??= []).push(channel.name);
          if (active.has(channel.id)) continue;
          const color = colors.get(channel.name.toLowerCase()) ?? CHANNEL_COLORS[colorIndex++ % CHANNEL_COLORS.length];
          const subscription = await this.subscriptions.subscribe(principal.id, channel.id, color, newest, tx);
          added.push({ user: principal, channel, subscription });
        }
      }
      const creationEvents = added.length > 0 ? [] : await this.creationEvents(tx, realmId, created, audience);
      const defaults = created.some((channel) => channel.isDefault) ? [defaultChannelsEvent(realmId, audience, await this.channelsRepository.defaultIds(realmId, tx))] : [];
      return {
        value: { subscribed, already_subscribed: already, ...(unauthorized.length ? { unauthorized } : {}), created: created.map((c) => c.id) },
        events:
          added.length > 0
            ? [...(await this.additionEvents(tx, realmId, created, added, audience)), ...defaults]
            : [...creationEvents, ...defaults],
      };
    }, input.requestId);
    return transaction.catch((error: unknown) => {
      // Another request created a channel of that name meanwhile.
      if (isDuplicateChannelName(error)) throw channelAlreadyExists(toCreate[0]?.name ?? '');
      throw error;
    });
  }

  /** `stream` create for channels created with nobody subscribed (POST /channels/create with no subscribers). */
  private async creationEvents(tx: ColdTx, realmId: number, created: StreamModel[], audience: DirectoryUser[]): Promise<PendingEvent[]> {
    const stats = await this.stats.of(created, tx);
    return created.map((channel) => channelCreated(realmId, channelAudience(channel, audience, new Set()), toChannelRecord(channel, stats.get(channel.id)!)));
  }

  /** Built inside the transaction, so the subscriber lists include its own writes. */
  private async additionEvents(
    tx: ColdTx,
    realmId: number,
    created: StreamModel[],
    added: Added[],
    audience: DirectoryUser[],
  ): Promise<PendingEvent[]> {
    const byChannel = new Map<number, Added[]>();
    for (const entry of added) byChannel.set(entry.channel.id, [...(byChannel.get(entry.channel.id) ?? []), entry]);
    const channels = [...byChannel.values()].map((entries) => entries[0].channel);
    const subscribers = await subscribersOf(this.subscriptions, channels.map((c) => c.id), audience, tx);
    const recent = await this.stats.of(channels, tx);
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

/** What POST /users/me/subscriptions and POST /channels/create ask of the subscription path. */
export interface SubscribeInput {
  realmId: number;
  caller: AuthUser;
  /** With `color`: the color of the subscriptions made to that channel. */
  channels: (NewChannel & { color?: string })[];
  principals: DirectoryUser[];
  othersIncluded: boolean;
  options: ChannelCreationOptions;
  authorizationErrorsFatal: boolean;
  requestId: string;
  mustCreate?: boolean;
  /**
   * A new account joining the channels its invitation chose (Zulip's bulk_add_subscriptions at
   * sign-up): the inviter's right to add it was checked when inviting, so no authorization
   * here, and nothing is created.
   */
  asNewUser?: boolean;
}

/** A subscription this request created or reactivated. */
interface Added {
  user: DirectoryUser;
  channel: StreamModel;
  subscription: SubscriptionModel;
}

export type { DirectoryUser };

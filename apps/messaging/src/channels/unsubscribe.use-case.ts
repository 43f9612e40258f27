import { Injectable } from '@nestjs/common';
import type { AuthUser, UserCommand, Messaging } from '@teamchat/contracts';
import { EventOutbox, type StreamModel } from '@teamchat/db';
import { ZulipError, badRequest, type DecodedParams } from '@teamchat/zulip';
import { ChannelsRepository } from '../data/channels.repository';
import { SubscriptionsRepository } from '../data/subscriptions.repository';
import { UsersReadonlyRepository, type DirectoryUser } from '../data/users.readonly.repository';
import { channelsGone, peerEvents, subscribersOf, subscriptionEvent, type PendingEvent } from './channel-events';
import { canSeeChannel } from './channel-rules';
import { ChannelPermissions } from '../channel-administration/channel-permissions';
import { resolvePrincipals } from './principals';

type Params = DecodedParams<typeof Messaging.unsubscribeParams>;

/**
 * DELETE /users/me/subscriptions. Removing someone else takes an administrator (Zulip's
 * default can_remove_subscribers_group); a channel the caller cannot see is unknown.
 * Once committed, the events of Zulip's bulk_remove_subscriptions: each removed user gets a
 * `subscription` remove (and a `stream` delete for channels they can no longer see), then
 * everyone who still sees a channel gets `peer_remove`.
 */
@Injectable()
export class Unsubscribe {
  constructor(
    private readonly channelsRepository: ChannelsRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly users: UsersReadonlyRepository,
    private readonly outbox: EventOutbox,
    private readonly access: ChannelPermissions,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<{ removed: string[]; not_removed: string[] }> {
    return this.apply(await this.prepare(realm.id, user, params), requestId);
  }

  /**
   * Every check, nothing written: the principals and the channels named, each one the caller
   * can see (else Zulip's "does not exist"), and the permission to remove others.
   */
  async prepare(realmId: number, caller: AuthUser, params: Params): Promise<Unsubscription> {
    const principals = await resolvePrincipals(this.users, realmId, caller, params.principals);
    const names = [...new Set(params.subscriptions.map((name) => name.trim()))];
    const channels: StreamModel[] = [];
    for (const name of names) {
      const [id] = await this.channelsRepository.idsNamed(realmId, [name]);
      const channel = id === undefined ? null : ((await this.channelsRepository.withCallerSubscription(null, [id], caller.id))[0] ?? null);
      if (!channel || !canSeeChannel(channel, caller, channel.subscriptions.length > 0)) {
        throw new ZulipError('STREAM_DOES_NOT_EXIST', `Channel '${name}' does not exist`, { stream: name });
      }
      channels.push(channel);
    }
    // Removing someone else takes the channel's can_remove_subscribers_group (administrators by default).
    if (principals.some((p) => p.id !== caller.id)) {
      for (const channel of channels) {
        if (!(await this.access.may(caller, channel, 'can_remove_subscribers_group'))) throw badRequest('Insufficient permission');
      }
    }
    return { realmId, principals, channels };
  }

  /** Ends the subscriptions prepared, in one transaction with the events announcing them (outbox). */
  async apply({ realmId, principals, channels }: Unsubscription, requestId: string): Promise<{ removed: string[]; not_removed: string[] }> {
    const audience = await this.users.activeUsers(realmId);
    return this.outbox.runCold(async (tx) => {
      const removed: string[] = [];
      const notRemoved: string[] = [];
      const removals: Removal[] = [];
      for (const principal of principals) {
        for (const channel of channels) {
          const ended = await this.subscriptions.deactivate(principal.id, channel.id, tx);
          (ended ? removed : notRemoved).push(channel.name);
          if (ended) removals.push({ user: principal, channel });
        }
      }
      const subscribers = await subscribersOf(this.subscriptions, [...new Set(removals.map((r) => r.channel.id))], audience, tx);
      return { value: { removed, not_removed: notRemoved }, events: removalEvents(realmId, removals, subscribers, audience) };
    }, requestId);
  }
}

/** An unsubscription checked and not yet written (Unsubscribe.prepare). */
export interface Unsubscription {
  realmId: number;
  principals: DirectoryUser[];
  channels: StreamModel[];
}

interface Removal {
  user: DirectoryUser;
  channel: StreamModel;
}

function removalEvents(realmId: number, removals: Removal[], subscribers: Map<number, number[]>, audience: DirectoryUser[]): PendingEvent[] {
  const events: PendingEvent[] = [];
  const byUser = new Map<number, Removal[]>();
  for (const removal of removals) byUser.set(removal.user.id, [...(byUser.get(removal.user.id) ?? []), removal]);
  for (const [userId, own] of byUser) {
    events.push(
      subscriptionEvent(realmId, [userId], {
        op: 'remove',
        subscriptions: own.map(({ channel }) => ({ name: channel.name, stream_id: channel.id })),
      }),
    );
    const gone = own.filter(({ user, channel }) => !canSeeChannel(channel, user, false)).map(({ channel }) => channel.id);
    if (gone.length > 0) events.push(channelsGone(realmId, [userId], gone));
  }
  const byChannel = new Map<number, Removal[]>();
  for (const removal of removals) byChannel.set(removal.channel.id, [...(byChannel.get(removal.channel.id) ?? []), removal]);
  const changes = [...byChannel.values()].map((list) => ({
    channel: list[0].channel,
    altered: list.map((r) => r.user.id),
    subscribers: new Set(subscribers.get(list[0].channel.id) ?? []),
  }));
  return [...events, ...peerEvents('peer_remove', realmId, changes, audience)];
}

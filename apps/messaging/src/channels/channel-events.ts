import { MessagingEvents, type ChannelRecord, type ClientEvent, type EventDef } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import type { SubscriptionsRepository } from '../data/subscriptions.repository';
import type { ColdTx } from '../data/transactions';
import type { DirectoryUser } from '../data/users.readonly.repository';
import { canSeeChannel, type ChannelVisibility } from './channel-rules';

/**
 * A domain event a use case builds while it writes, and writes to the outbox in the same
 * transaction (EventOutbox): published once that commits, so a request that fails publishes nothing.
 */
export interface PendingEvent {
  def: EventDef<ClientEvent>;
  payload: ClientEvent;
}

const ascending = (a: number, b: number) => a - b;

/** A `subscription` event (add, remove, update, peer_add, peer_remove) for `users`. */
export function subscriptionEvent(realmId: number, users: number[], event: Record<string, unknown>): PendingEvent {
  return { def: MessagingEvents.subscriptionChanged, payload: { realmId, users, event: { type: 'subscription', ...event } } };
}

/** A `stream` event (create, delete) for `users`. */
export function channelEvent(realmId: number, users: number[], event: Record<string, unknown>): PendingEvent {
  return { def: MessagingEvents.channelChanged, payload: { realmId, users, event: { type: 'stream', ...event } } };
}

/** `stream` create: the channel record, for users who could not see the channel until now. */
export const channelCreated = (realmId: number, users: number[], record: ChannelRecord): PendingEvent =>
  channelEvent(realmId, users, { op: 'create', streams: [record] });

/** `stream` delete (Zulip's send_stream_deletion_event), for users who can no longer see them. */
export const channelsGone = (realmId: number, users: number[], streamIds: number[]): PendingEvent =>
  channelEvent(realmId, users, { op: 'delete', streams: streamIds.map((id) => ({ stream_id: id })), stream_ids: streamIds });

/**
 * Who may see that the channel exists (the rule of `canSeeChannel`, Zulip's metadata access):
 * a public channel every active non-guest plus its guest subscribers, a web-public one every
 * active user, a private one its subscribers and the organization's administrators.
 */
export function channelAudience(channel: ChannelVisibility, users: DirectoryUser[], subscribers: ReadonlySet<number>): number[] {
  return users
    .filter((user) => canSeeChannel(channel, user, subscribers.has(user.id)))
    .map((user) => user.id)
    .sort(ascending);
}

/** Who joined or left one channel in a request, and its active subscribers afterwards. */
export interface MembershipChange {
  channel: ChannelVisibility & { id: number };
  altered: number[];
  subscribers: ReadonlySet<number>;
}

/**
 * `peer_add` / `peer_remove`, as Zulip's send_peer_subscriber_events: everyone who can see the
 * channel after the change learns who joined or left it, except those users themselves.
 * Private channels get one event each; public channels with the same joiners share one event
 * for the web-public ones and one for those without guest subscribers (whose audience is the
 * same: every non-guest), and one each for the rest.
 */
export function peerEvents(
  op: 'peer_add' | 'peer_remove',
  realmId: number,
  changes: MembershipChange[],
  users: DirectoryUser[],
): PendingEvent[] {
  const events: PendingEvent[] = [];
  const guests = new Set(users.filter((user) => user.role === Role.GUEST).map((user) => user.id));
  const send = (group: MembershipChange[], altered: number[]) => {
    const excluded = new Set(altered);
    const recipients = channelAudience(group[0].channel, users, group[0].subscribers).filter((id) => !excluded.has(id));
    if (recipients.length === 0) return;
    events.push(
      subscriptionEvent(realmId, recipients, {
        op,
        stream_ids: group.map((change) => change.channel.id).sort(ascending),
        user_ids: [...altered].sort(ascending),
      }),
    );
  };

  const changed = changes.filter((change) => change.altered.length > 0);
  for (const change of changed.filter((c) => c.channel.inviteOnly)) send([change], change.altered);

  const byAltered = new Map<string, MembershipChange[]>();
  for (const change of changed.filter((c) => !c.channel.inviteOnly)) {
    const key = [...change.altered].sort(ascending).join(',');
    byAltered.set(key, [...(byAltered.get(key) ?? []), change]);
  }
  for (const group of byAltered.values()) {
    const altered = group[0].altered;
    const hasGuests = (change: MembershipChange) => [...change.subscribers].some((id) => guests.has(id));
    const webPublic = group.filter((c) => c.channel.isWebPublic);
    const withGuests = group.filter((c) => !c.channel.isWebPublic && hasGuests(c));
    const withoutGuests = group.filter((c) => !c.channel.isWebPublic && !hasGuests(c));
    for (const change of withGuests) send([change], altered);
    if (webPublic.length > 0) send(webPublic, altered);
    if (withoutGuests.length > 0) send(withoutGuests, altered);
  }
  return events;
}

/**
 * The active subscribers of each channel, in id order: only users of `users` (the active users
 * of the organization), as Zulip leaves deactivated users out of subscriber lists. Read in `tx`,
 * so they include its own writes.
 */
export async function subscribersOf(
  subscriptions: SubscriptionsRepository,
  streamIds: number[],
  users: DirectoryUser[],
  tx: ColdTx,
): Promise<Map<number, number[]>> {
  const active = new Set(users.map((user) => user.id));
  const rows = await subscriptions.activeOfChannels(streamIds, tx);
  const byStream = new Map<number, number[]>(streamIds.map((id) => [id, []]));
  for (const row of rows) if (active.has(row.userId)) byStream.get(row.streamId)?.push(row.userId);
  return byStream;
}

import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { EventOutbox, isStoredId } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { SubscriptionsRepository, type SubscriptionSettings } from '../data/subscriptions.repository';
import { subscriptionEvent, type PendingEvent } from './channel-events';
import { HEX_COLOR, canSeeChannel } from './channel-rules';

type Params = DecodedParams<typeof Messaging.updateSubscriptionPropertiesParams>;

/** API property → column. `in_home_view` is the legacy inverse of `is_muted`. */
const BOOLEAN_PROPERTIES = {
  is_muted: 'isMuted',
  in_home_view: 'isMuted',
  pin_to_top: 'pinToTop',
  desktop_notifications: 'desktopNotifications',
  audible_notifications: 'audibleNotifications',
  push_notifications: 'pushNotifications',
  email_notifications: 'emailNotifications',
  wildcard_mentions_notify: 'wildcardMentionsNotify',
} as const;

/**
 * POST /users/me/subscriptions/properties (zerver/views/streams.py
 * update_subscription_properties_backend). Every change is checked before any is written; once
 * they are all written (in one transaction, with their events: the outbox), the caller gets one
 * `subscription` update event per change (do_change_subscription_property).
 */
@Injectable()
export class UpdateSubscriptionProperties {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const caller = user;
    // Every channel named, read at once: a request may carry thousands of changes.
    const ids = [...new Set(params.subscription_data.map((change) => change.stream_id).filter(isStoredId))];
    const channels = new Map(
      (await this.subscriptions.channelsWithActiveSubscriptionOf(realm.id, ids, caller.id)).map((channel) => [channel.id, channel]),
    );
    // The changes to one subscription fold into one write, in order (a later change of a column wins).
    const updates = new Map<number, SubscriptionSettings>();
    const events: PendingEvent[] = [];
    for (const { stream_id: streamId, property, value } of params.subscription_data) {
      const channel = channels.get(streamId);
      const subscription = channel?.subscriptions[0];
      if (!channel || !canSeeChannel(channel, caller, subscription !== undefined)) throw badRequest('Invalid channel ID');
      if (!subscription) throw badRequest(`Not subscribed to channel ID ${streamId}`);
      updates.set(subscription.id, { ...updates.get(subscription.id), ...toColumn(property, value) });
      events.push(...changeEvents(realm.id, caller.id, streamId, property, value));
    }
    return this.outbox.runCold(
      async (tx) => {
        await this.subscriptions.changeSettings(updates, tx);
        return { value: {}, events };
      },
      requestId,
      // A request may change every subscription the caller has.
      { timeout: 30_000 },
    );
  }
}

/**
 * The events of one checked change. Muting is stored as `is_muted`; a change of it or of its
 * legacy inverse `in_home_view` sends `in_home_view` first, then `is_muted` (Zulip, FL 139).
 */
function changeEvents(realmId: number, userId: number, streamId: number, property: string, value: boolean | string): PendingEvent[] {
  const update = (name: string, to: boolean | string) =>
    subscriptionEvent(realmId, [userId], { op: 'update', stream_id: streamId, property: name, value: to });
  if (property !== 'is_muted' && property !== 'in_home_view') return [update(property, value)];
  const muted = property === 'is_muted' ? value === true : value === false;
  return [update('in_home_view', !muted), update('is_muted', muted)];
}

function toColumn(property: string, value: boolean | string): SubscriptionSettings {
  if (property === 'color') {
    if (typeof value !== 'string') throw badRequest('color is not a string');
    if (!HEX_COLOR.test(value)) throw badRequest('color is not a valid hex color code');
    return { color: value };
  }
  if (!(property in BOOLEAN_PROPERTIES)) throw badRequest(`Unknown subscription property: ${property}`);
  if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
  const column = BOOLEAN_PROPERTIES[property as keyof typeof BOOLEAN_PROPERTIES];
  return { [column]: property === 'in_home_view' ? !value : value };
}

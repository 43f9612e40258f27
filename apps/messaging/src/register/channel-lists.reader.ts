import { Injectable } from '@nestjs/common';
import type { AuthUser, ChannelRecord, SubscriptionRecord, UserSettings } from '@teamchat/contracts';
import { Role, isAdminRole } from '@teamchat/zulip';
import { toChannelRecord, toSubscriptionRecord } from '../channels/channel-record';
import { ChannelStatsReader } from '../channels/channel-stats';
import { isListed } from '../channels/list-channels.use-case';
import { SubscriptionsRepository, type ChannelWithOwnSubscriptionRow } from '../data/subscriptions.repository';
import { ListSubscriptions } from '../channels/list-subscriptions.use-case';

export interface ChannelListsRequest {
  realmId: number;
  caller: Pick<AuthUser, 'id' | 'role'>;
  /** `subscriptions`, `unsubscribed` and `never_subscribed` (fetch key `subscription`). */
  subscriptionLists: boolean;
  /** `streams` (fetch key `stream`). */
  streams: boolean;
  includeSubscribers: boolean;
  /** The `archived_channels` capability: archived channels are listed too. */
  includeArchived: boolean;
  /**
   * The caller's settings, to fill in the notification properties that follow them, for
   * clients without the `notification_settings_null` capability; null to leave them null.
   */
  notificationDefaults: UserSettings | null;
}

type Channel = ChannelWithOwnSubscriptionRow;

/** The four subscription properties old clients cannot take as null, and the setting each follows. */
const NOTIFICATION_DEFAULTS = [
  ['desktop_notifications', 'enable_stream_desktop_notifications'],
  ['audible_notifications', 'enable_stream_audible_notifications'],
  ['push_notifications', 'enable_stream_push_notifications'],
  ['email_notifications', 'enable_stream_email_notifications'],
] as const;

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/**
 * The channel lists of POST /register (zerver/lib/subscription_info.py
 * gather_subscriptions_helper and do_get_streams), all from one read of the organization's
 * channels with the caller's subscription rows, one of their statistics and, when asked, one
 * of their subscribers.
 */
@Injectable()
export class ChannelListsReader {
  constructor(
    private readonly subscriptionRows: SubscriptionsRepository,
    private readonly stats: ChannelStatsReader,
    private readonly subscriptions: ListSubscriptions,
  ) {}

  async read(request: ChannelListsRequest): Promise<Record<string, unknown>> {
    const { caller } = request;
    const channels = await this.subscriptionRows.channelsWithOwnSubscription(request.realmId, caller.id, request.includeArchived);
    const subOf = (channel: Channel) => channel.subscription ?? undefined;
    const isAdmin = isAdminRole(caller.role);
    const isGuest = caller.role === Role.GUEST;

    const subscribed = channels.filter((c) => subOf(c)?.active);
    const unsubscribed = channels.filter((c) => {
      const sub = subOf(c);
      if (!sub || sub.active) return false;
      // Metadata of a channel left behind stays visible only where the caller could look it up.
      if (c.isWebPublic) return true;
      return !isGuest && (!c.inviteOnly || isAdmin);
    });
    const neverSubscribed = channels.filter(
      (c) => !subOf(c) && (isGuest ? c.isWebPublic : true) && (!c.inviteOnly || isAdmin),
    );
    const listed = request.streams
      ? channels.filter((c) =>
          isListed(c, Boolean(subOf(c)?.active), caller, {
            include_public: true,
            include_web_public: true,
            include_subscribed: true,
            include_all: isAdmin,
          }),
        )
      : [];

    const described = request.subscriptionLists ? [...subscribed, ...unsubscribed, ...neverSubscribed] : [];
    const stats = await this.stats.of([...new Map([...described, ...listed].map((c) => [c.id, c])).values()]);
    const subscribers = request.subscriptionLists && request.includeSubscribers ? await this.subscribersFor(described, caller) : undefined;

    const state: Record<string, unknown> = {};
    if (request.subscriptionLists) {
      const withSubscription = (c: Channel) =>
        this.withNotificationDefaults(
          toSubscriptionRecord(c, stats.get(c.id)!, subOf(c)!, subscribers && (subscribers.get(c.id) ?? [])),
          request.notificationDefaults,
        );
      state.subscriptions = subscribed.map(withSubscription).sort(byName);
      state.unsubscribed = unsubscribed.map(withSubscription).sort(byName);
      state.never_subscribed = neverSubscribed
        .map((c): ChannelRecord & { subscribers?: number[] } => ({
          ...toChannelRecord(c, stats.get(c.id)!),
          ...(subscribers ? { subscribers: subscribers.get(c.id) ?? [] } : {}),
        }))
        .sort(byName);
    }
    if (request.streams) state.streams = listed.map((c) => toChannelRecord(c, stats.get(c.id)!));
    return state;
  }

  /**
   * Subscriber lists the caller may see (Zulip's validate_user_access_to_subscribers_helper):
   * web-public channels, channels the caller is subscribed to, and for non-guests public
   * channels, and for administrators every channel. The others get an empty list.
   */
  private async subscribersFor(channels: Channel[], caller: Pick<AuthUser, 'id' | 'role'>): Promise<Map<number, number[]>> {
    const visible = channels.filter((c) => {
      if (c.isWebPublic || c.subscription?.active) return true;
      if (caller.role === Role.GUEST) return false;
      return !c.inviteOnly || isAdminRole(caller.role);
    });
    return visible.length ? this.subscriptions.subscribersOf(visible.map((c) => c.id)) : new Map();
  }

  /** Zulip's handle_stream_notifications_compatibility: a null property shows the setting it follows. */
  private withNotificationDefaults(record: SubscriptionRecord, settings: UserSettings | null): SubscriptionRecord {
    if (!settings) return record;
    const filled = { ...record };
    for (const [property, setting] of NOTIFICATION_DEFAULTS) filled[property] ??= settings[setting];
    return filled;
  }
}

import { statement, type StreamModel } from '@teamchat/db';
import type { SubscriptionRow } from '../channels/channel-record';
import { CHANNEL_SETTING_COLUMNS } from './channels.sql';

/** `subscriptions`' hot-path statements (SubscriptionsRepository's). */

/** A channel's active subscribers whose accounts are active (typing's audience). */
export const activeSubscriberIds = statement<{ userId: number }, [streamId: number]>(
  'messaging.active_subscriber_ids',
  `SELECT s.user_id AS "userId" FROM subscriptions s JOIN users u ON u.id = s.user_id
   WHERE s.stream_id = $1 AND s.active AND u.is_active ORDER BY s.user_id`,
);

/** The caller's own subscription row to a channel, as listings show it (`active` false once left). */
export interface OwnSubscription extends SubscriptionRow {
  active: boolean;
}

export type ChannelWithOwnSubscriptionRow = StreamModel & { subscription: OwnSubscription | null };

/** The organization's channels in id order (archived ones too when asked), each with the caller's subscription row if any. */
export const channelsWithOwnSubscription = statement<
  ChannelWithOwnSubscriptionRow,
  [realmId: number, userId: number, includeArchived: boolean]
>(
  'messaging.channels_with_own_subscription',
  `SELECT s.id, s.realm_id AS "realmId", s.name, s.description, s.rendered_description AS "renderedDescription",
     s.invite_only AS "inviteOnly", s.history_public_to_subscribers AS "historyPublicToSubscribers",
     s.is_web_public AS "isWebPublic", s.is_archived AS "isArchived", s.creator_id AS "creatorId",
     s.first_message_id AS "firstMessageId", s.date_created AS "dateCreated", ${CHANNEL_SETTING_COLUMNS},
     CASE WHEN sub.id IS NULL THEN NULL ELSE json_build_object(
       'active', sub.active, 'color', sub.color, 'isMuted', sub.is_muted, 'pinToTop', sub.pin_to_top,
       'desktopNotifications', sub.desktop_notifications, 'audibleNotifications', sub.audible_notifications,
       'pushNotifications', sub.push_notifications, 'emailNotifications', sub.email_notifications,
       'wildcardMentionsNotify', sub.wildcard_mentions_notify) END AS subscription
   FROM streams s LEFT JOIN subscriptions sub ON sub.stream_id = s.id AND sub.user_id = $2
   WHERE s.realm_id = $1 AND ($3 OR NOT s.is_archived)
   ORDER BY s.id`,
);

/** The active subscribers, with active accounts, of each of these channels, in user id order. */
export const activeSubscribersOfChannels = statement<{ streamId: number; userId: number }, [streamIds: number[]]>(
  'messaging.active_subscribers_of_channels',
  `SELECT s.stream_id AS "streamId", s.user_id AS "userId" FROM subscriptions s JOIN users u ON u.id = s.user_id
   WHERE s.stream_id = ANY($1::int[]) AND s.active AND u.is_active
   ORDER BY s.user_id`,
);

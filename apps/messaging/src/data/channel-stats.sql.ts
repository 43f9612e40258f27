import { statement } from '@teamchat/db';

/** What channel listings count (ChannelStatsRepository's): subscribers, recent traffic. */

/** How many active subscribers with active accounts each of these channels has (none: no row). */
export const subscriberCounts = statement<{ streamId: number; count: number }, [streamIds: number[]]>(
  'messaging.subscriber_counts',
  `SELECT s.stream_id AS "streamId", count(*)::int AS count FROM subscriptions s JOIN users u ON u.id = s.user_id
   WHERE s.stream_id = ANY($1::int[]) AND s.active AND u.is_active GROUP BY s.stream_id`,
);

/** Which of these channels have a message sent since a time. */
export const channelsWithMessagesSince = statement<{ streamId: number }, [streamIds: number[], since: Date]>(
  'messaging.channels_with_messages_since',
  `SELECT DISTINCT stream_id AS "streamId" FROM messages WHERE stream_id = ANY($1::int[]) AND date_sent >= $2`,
);

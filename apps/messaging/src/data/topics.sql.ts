import { statement } from '@teamchat/db';

/** `user_topics`' statements (TopicsRepository's): each user's visibility policy of a topic. */

/** Sets a user's visibility policy for a topic (matched whatever its case), creating the row if need be. */
export const setTopicVisibility = statement<Record<string, never>, [userId: number, streamId: number, topic: string, policy: number]>(
  'messaging.set_topic_visibility',
  `WITH updated AS (
     UPDATE user_topics SET visibility_policy = $4, last_updated = now()
     WHERE user_id = $1 AND stream_id = $2 AND lower(topic_name) = lower($3)
     RETURNING id
   )
   INSERT INTO user_topics (user_id, stream_id, topic_name, visibility_policy)
   SELECT $1::int, $2::int, $3::text, $4::smallint WHERE NOT EXISTS (SELECT 1 FROM updated)
   ON CONFLICT (user_id, stream_id, topic_name) DO UPDATE SET visibility_policy = EXCLUDED.visibility_policy, last_updated = now()`,
);

/** A topic visibility policy of a user, with its channel's name and whether the channel is archived. */
export interface TopicPolicyRow {
  streamId: number;
  streamName: string;
  channelArchived: boolean;
  topicName: string;
  lastUpdated: Date;
  policy: number;
}

/**
 * Every topic visibility policy of a user, archived channels included, in the order they were
 * first set: POST /register's `user_topics`, `muted_topics` and `unread_msgs` each take their
 * share of this one read.
 */
export const topicPoliciesOfUser = statement<TopicPolicyRow, [userId: number]>(
  'messaging.topic_policies_of_user',
  `SELECT ut.stream_id AS "streamId", s.name AS "streamName", s.is_archived AS "channelArchived", ut.topic_name AS "topicName",
     ut.last_updated AS "lastUpdated", ut.visibility_policy AS policy
   FROM user_topics ut JOIN streams s ON s.id = ut.stream_id
   WHERE ut.user_id = $1
   ORDER BY ut.id`,
);

/**
 * A whole topic moved: its visibility policies move with it (replacing any the users had in the
 * new topic); answers each user's policy, now in the new topic.
 */
export const moveTopicPolicies = statement<
  { userId: number; policy: number },
  [oldStreamId: number, oldTopic: string, newStreamId: number, newTopic: string]
>(
  'messaging.move_topic_policies',
  `WITH moved AS (
     DELETE FROM user_topics WHERE stream_id = $1 AND lower(topic_name) = lower($2) RETURNING user_id, visibility_policy
   )
   INSERT INTO user_topics (user_id, stream_id, topic_name, visibility_policy, last_updated)
   SELECT user_id, $3, $4, visibility_policy, now() FROM moved
   ON CONFLICT (user_id, stream_id, topic_name) DO UPDATE SET visibility_policy = EXCLUDED.visibility_policy, last_updated = now()
   RETURNING user_id AS "userId", visibility_policy AS policy`,
);

/** A user's visibility policy of a topic (matched whatever its case), if any. */
export const topicVisibilityOf = statement<{ policy: number; topicName: string }, [userId: number, streamId: number, topic: string]>(
  'messaging.topic_visibility_of',
  `SELECT visibility_policy AS policy, topic_name AS "topicName" FROM user_topics
   WHERE user_id = $1 AND stream_id = $2 AND lower(topic_name) = lower($3)`,
);

/** Removes a user's visibility policy of a topic (back to inherit); the rows removed. */
export const clearTopicVisibility = statement<{ id: number }, [userId: number, streamId: number, topic: string]>(
  'messaging.clear_topic_visibility',
  `DELETE FROM user_topics WHERE user_id = $1 AND stream_id = $2 AND lower(topic_name) = lower($3) RETURNING id`,
);

import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { emptyResponse, int } from '../api/api-schemas';

/** One topic of a channel as GET /users/me/{stream_id}/topics lists it. */
const topicEntrySchema = z.object({
  name: z.string(),
  /** The newest message of the topic the caller may see. */
  max_id: int(),
});
export type TopicEntry = z.output<typeof topicEntrySchema>;

/** A channel id in a path: like Zulip's `<int:stream_id>`, digits only (else no route matches). */
const pathChannelId = () => param.json(z.number().int().min(0));

export const listTopicsParams = {
  /** Path parameter. */
  stream_id: pathChannelId(),
  allow_empty_topic_name: param.bool().default(false),
};

export const listTopics = defineApiCommand('messaging', 'list_topics', {
  route: 'GET /users/me/{stream_id}/topics',
  summary: "A channel's topics the caller may see, the most recently active first.",
  params: listTopicsParams,
  response: z.object({ topics: z.array(topicEntrySchema) }),
});

export const markTopicAsReadParams = {
  stream_id: param.int(),
  topic_name: param.string(),
};

export const markTopicAsRead = defineApiCommand('messaging', 'mark_topic_as_read', {
  route: 'POST /mark_topic_as_read',
  summary: "Marks a topic's messages as read (deprecated in Zulip, still served).",
  params: markTopicAsReadParams,
  response: emptyResponse,
});

export const deleteTopicParams = {
  /** Path parameter. */
  stream_id: pathChannelId(),
  topic_name: param.string(),
};

export const deleteTopic = defineApiCommand('messaging', 'delete_topic', {
  route: 'POST /streams/{stream_id}/delete_topic',
  summary: "Deletes a topic's messages; `complete` is false when the time budget ran out first (ask again).",
  params: deleteTopicParams,
  response: z.object({ complete: z.boolean() }),
});

/**
 * The topic-deletion queue (BullMQ, in messaging). Its names are fixed here, never derived
 * from a class name, so a rename cannot strand queued work.
 */
export const TOPIC_DELETION_QUEUE = 'topic-deletion';
export const TOPIC_DELETION_JOB = 'delete-topic.v1';

/**
 * One job per (channel, topic) — per requester too where history is protected, since then
 * what may be deleted depends on who asks. The data says what to delete, never which
 * message ids: every batch re-selects what still exists, so a job can run twice safely.
 */
export const topicDeletionJobSchema = z.object({
  realmId: z.number().int(),
  streamId: z.number().int(),
  /** The topic as the client named it ("" for the empty topic); matched case-insensitively. */
  topic: z.string(),
  requestedBy: z.number().int(),
  /**
   * Null: every message of the topic. Otherwise (protected history) only messages from this
   * id on, and older ones the requester received.
   */
  visibleFrom: z.number().int().nullable(),
});
export type TopicDeletionJob = z.infer<typeof topicDeletionJobSchema>;

/** What a finished job returns. */
export interface TopicDeletionResult {
  deleted: number;
}

export const updateUserTopicParams = {
  stream_id: param.int(),
  topic: param.string(),
  /** 0 inherit (removes the policy), 1 muted, 2 unmuted, 3 followed. */
  visibility_policy: param.json(z.number().int()),
};

export const updateUserTopic = defineApiCommand('messaging', 'update_user_topic', {
  route: 'POST /user_topics',
  summary: "Sets the caller's visibility policy for a topic (muted, unmuted, followed, or back to inherit).",
  params: updateUserTopicParams,
  response: emptyResponse,
});

export const muteTopicParams = {
  stream_id: param.int().optional(),
  /** The channel's name: either this or `stream_id`. */
  stream: param.string().optional(),
  topic: param.string(),
  op: param.oneOf(['add', 'remove'] as const),
};

export const muteTopic = defineApiCommand('messaging', 'mute_topic', {
  route: 'PATCH /users/me/subscriptions/muted_topics',
  summary: 'Deprecated form of POST /user_topics: mutes (`add`) or unmutes (`remove`) a topic.',
  params: muteTopicParams,
  response: emptyResponse,
});

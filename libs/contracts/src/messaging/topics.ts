import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';

/** One topic of a channel as GET /users/me/{stream_id}/topics lists it. */
export interface TopicEntry {
  name: string;
  /** The newest message of the topic the caller may see. */
  max_id: number;
}

/** A channel id in a path: like Zulip's `<int:stream_id>`, digits only (else no route matches). */
const pathChannelId = () => param.json(z.number().int().min(0));

export const listTopicsParams = {
  /** Path parameter. */
  stream_id: pathChannelId(),
  allow_empty_topic_name: param.bool().default(false),
};

/** GET /users/me/{stream_id}/topics. */
export const listTopics = defineApiCommand<typeof listTopicsParams, { topics: TopicEntry[] }>(
  'messaging',
  'list_topics',
  listTopicsParams,
);

export const markTopicAsReadParams = {
  stream_id: param.int(),
  topic_name: param.string(),
};

/** POST /mark_topic_as_read (deprecated in Zulip, still served). */
export const markTopicAsRead = defineApiCommand<typeof markTopicAsReadParams, Record<string, never>>(
  'messaging',
  'mark_topic_as_read',
  markTopicAsReadParams,
);

export const deleteTopicParams = {
  /** Path parameter. */
  stream_id: pathChannelId(),
  topic_name: param.string(),
};

/** POST /streams/{stream_id}/delete_topic: `complete` is false when the time budget ran out first. */
export const deleteTopic = defineApiCommand<typeof deleteTopicParams, { complete: boolean }>(
  'messaging',
  'delete_topic',
  deleteTopicParams,
);

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

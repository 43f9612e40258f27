import type { Messaging, ResultOf } from '@teamchat/contracts';
import { displayTopic } from '../messages/message-text';

/** One stored edit (Zulip's edit_history entry): what changed, with the values before and after. */
export interface EditHistoryEntry {
  user_id: number;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
}

/** The stored history (newest first), read defensively: anything else counts as no history. */
export const storedHistory = (value: unknown): EditHistoryEntry[] => (Array.isArray(value) ? (value as EditHistoryEntry[]) : []);

type Snapshot = ResultOf<typeof Messaging.getMessageHistory>['message_history'][number];

/**
 * Zulip's message_history: the original message, then one snapshot per edit with the state
 * after it and only the prev_* fields of what that edit changed; oldest first. Built backwards
 * from the current state through the stored entries.
 */
export function messageHistory(
  message: { senderId: number; dateSent: Date; content: string; renderedContent: string; topic: string; streamId: number | null; editHistory: unknown },
  allowEmptyTopic: boolean,
): Snapshot[] {
  const topicOf = (topic: string) => (message.streamId === null ? topic : displayTopic(topic, allowEmptyTopic));
  const state = { content: message.content, rendered: message.renderedContent, topic: message.topic, stream: message.streamId };
  const edits: Snapshot[] = [];
  for (const entry of storedHistory(message.editHistory)) {
    const snapshot: Snapshot = {
      topic: topicOf(state.topic),
      content: state.content,
      rendered_content: state.rendered,
      timestamp: entry.timestamp,
      user_id: entry.user_id,
    };
    if (entry.prev_topic !== undefined) {
      snapshot.prev_topic = topicOf(entry.prev_topic);
      state.topic = entry.prev_topic;
    }
    if (entry.prev_stream !== undefined && entry.stream !== undefined) {
      snapshot.stream = entry.stream;
      snapshot.prev_stream = entry.prev_stream;
      state.stream = entry.prev_stream;
    }
    if (entry.prev_content !== undefined) {
      snapshot.prev_content = entry.prev_content;
      snapshot.prev_rendered_content = entry.prev_rendered_content ?? '';
      state.content = entry.prev_content;
      state.rendered = entry.prev_rendered_content ?? '';
    }
    edits.push(snapshot);
  }
  const original: Snapshot = {
    topic: topicOf(state.topic),
    content: state.content,
    rendered_content: state.rendered,
    timestamp: Math.floor(message.dateSent.getTime() / 1000),
    user_id: message.senderId,
  };
  return [original, ...edits.reverse()];
}

import { api } from '../api/client';
import type { Message } from '../api/types';
import { liveMessagesAfter, type MessagePage } from '../events/dispatch';
import { apiNarrow, type Narrow } from '../narrow/narrow';

/**
 * A narrow's newest messages (GET /messages), and what arrived live while they were fetched: the
 * one query function of every `messagesKey(narrow)` (the message view and the recent
 * conversations share the combined feed's).
 */
export async function fetchMessages(narrow: Narrow, myId: number, signal: AbortSignal): Promise<MessagePage> {
  const answer = await api.get<{ messages: Message[]; found_oldest: boolean }>(
    '/messages',
    { anchor: 'newest', num_before: narrow.kind === 'all' ? 200 : 100, num_after: 0, narrow: apiNarrow(narrow), apply_markdown: true, client_gravatar: false },
    signal,
  );
  const newest = answer.messages.at(-1)?.id ?? 0;
  return { messages: [...answer.messages, ...liveMessagesAfter(newest, narrow, myId)], foundOldest: answer.found_oldest };
}

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { api } from '../api/client';
import type { Message } from '../api/types';
import { Compose } from '../compose/Compose';
import type { ChatState } from '../events/chat-state';
import { liveMessagesAfter, messagesKey, type MessagePage } from '../events/dispatch';
import { useTyping, typingInDm, typingInTopic } from '../events/typing';
import { apiNarrow, narrowHash, otherPeople, type Narrow } from '../narrow/narrow';
import { MessageContent } from './MessageContent';

function title(narrow: Narrow): string {
  switch (narrow.kind) {
    case 'all':
      return 'Combined feed';
    case 'channel':
      return narrow.topic !== undefined ? `#${narrow.channelName} › ${narrow.topic}` : `#${narrow.channelName}`;
    case 'dm':
      return narrow.label;
  }
}

const timeOf = (seconds: number) => new Date(seconds * 1000);

/** The narrow's messages (the region "Messages", each an article), who is typing, and the compose box. */
export function MessageView({ state, narrow }: { state: ChatState; narrow: Narrow }) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: messagesKey(narrow),
    queryFn: async ({ signal }): Promise<MessagePage> => {
      const answer = await api.get<{ messages: Message[]; found_oldest: boolean }>(
        '/messages',
        { anchor: 'newest', num_before: 100, num_after: 0, narrow: apiNarrow(narrow), apply_markdown: true, client_gravatar: false },
        signal,
      );
      // What arrived live while this was fetched, and is newer than what it read, goes after it.
      const newest = answer.messages.at(-1)?.id ?? 0;
      return { messages: [...answer.messages, ...liveMessagesAfter(newest, narrow, state.me.user_id)], foundOldest: answer.found_oldest };
    },
  });
  const messages = query.data?.messages ?? [];
  const list = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);

  // New messages keep the view at the bottom when it was there.
  useLayoutEffect(() => {
    const element = list.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [messages.length, narrow]);

  useMarkReadWhenSeen(list, state, messages.length, narrow);

  const typingPrefix =
    narrow.kind === 'channel'
      ? narrow.topic !== undefined
        ? typingInTopic(narrow.channelId, narrow.topic)
        : typingInTopic(narrow.channelId, '') // any topic of the channel
      : narrow.kind === 'dm'
        ? typingInDm(narrow.userIds.filter((id) => id !== state.me.user_id))
        : '';
  const typists = useTyping(typingPrefix);

  return (
    <main className="view">
      <h1>{title(narrow)}</h1>
      <section
        aria-label="Messages"
        className="messages"
        ref={list}
        tabIndex={0}
        onScroll={(event) => {
          const element = event.currentTarget;
          atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
        }}
      >
        {query.isPending && <p className="loading">Loading messages…</p>}
        {query.isError && (
          <p role="alert">
            Messages could not be loaded: {query.error.message}{' '}
            <button type="button" onClick={() => void client.invalidateQueries({ queryKey: messagesKey(narrow) })}>
              Retry
            </button>
          </p>
        )}
        {query.isSuccess && messages.length === 0 && <p className="empty">No messages here yet.</p>}
        {messages.map((message) => (
          <MessageItem key={message.id} message={message} narrow={narrow} state={state} />
        ))}
      </section>
      <p className="typing" role="status" aria-live="polite">
        {typists.length > 0 && `${typists.map((id) => state.users[id]?.full_name ?? 'Someone').join(', ')} ${typists.length === 1 ? 'is' : 'are'} typing…`}
      </p>
      <Compose state={state} narrow={narrow} />
    </main>
  );
}

function MessageItem({ message, narrow, state }: { message: Message; narrow: Narrow; state: ChatState }) {
  const when = timeOf(message.timestamp);
  const where =
    message.type === 'stream'
      ? { text: `#${typeof message.display_recipient === 'string' ? message.display_recipient : ''} › ${message.subject}`, hash: narrowHash({ kind: 'channel', channelId: message.stream_id ?? 0, channelName: String(message.display_recipient), topic: message.subject }) }
      : { text: `Direct message`, hash: narrowHash({ kind: 'dm', userIds: otherPeople(message, state.me.user_id), label: '' }) };
  const showWhere = narrow.kind === 'all' || (narrow.kind === 'channel' && narrow.topic === undefined);
  return (
    <article className="message" aria-labelledby={`m${message.id}-sender`} data-id={message.id}>
      <header>
        <strong id={`m${message.id}-sender`}>{message.sender_full_name}</strong>
        <time dateTime={when.toISOString()} title={when.toLocaleString()}>
          {when.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
        </time>
        {showWhere && (
          <a className="where" href={where.hash}>
            {narrow.kind === 'channel' ? message.subject : where.text}
          </a>
        )}
      </header>
      <MessageContent html={message.content} />
    </article>
  );
}

/**
 * Marks messages read as they are seen, as Zulip does: an unread message at least half in view
 * while the page is visible is sent to POST /messages/flags (batched); the update_message_flags
 * event then moves the counts.
 */
function useMarkReadWhenSeen(list: RefObject<HTMLElement | null>, state: ChatState, count: number, narrow: Narrow): void {
  const unread = useRef(state.unread);
  unread.current = state.unread;
  const [visible, setVisible] = useState(() => document.visibilityState === 'visible');
  useEffect(() => {
    const changed = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', changed);
    return () => document.removeEventListener('visibilitychange', changed);
  }, []);
  const narrowText = JSON.stringify(narrow);
  useEffect(() => {
    const root = list.current;
    if (!root || !visible) return;
    const seen = new Set<number>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      const ids = [...seen].filter((id) => unread.current[id] !== undefined);
      seen.clear();
      if (ids.length > 0) void api.post('/messages/flags', { messages: ids, op: 'add', flag: 'read' }).catch(() => undefined);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const id = Number((entry.target as HTMLElement).dataset.id);
          if (entry.isIntersecting && unread.current[id] !== undefined) seen.add(id);
        }
        if (seen.size > 0 && timer === undefined) {
          timer = setTimeout(() => {
            timer = undefined;
            flush();
          }, 300);
        }
      },
      { root, threshold: 0.5 },
    );
    for (const article of root.querySelectorAll('article[data-id]')) observer.observe(article);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
      flush();
    };
  }, [list, count, narrowText, visible]);
}

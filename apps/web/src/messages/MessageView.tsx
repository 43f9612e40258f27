import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { api } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { Message } from '../api/types';
import { Compose } from '../compose/Compose';
import type { ChatState } from '../events/chat-state';
import { messagesKey, type MessagePage } from '../events/dispatch';
import { requestCompose } from '../compose/compose-requests';
import { isTyping } from '../search/SearchBox';
import { fetchMessages } from './fetch-messages';
import { useTyping, typingInDm, typingInTopic } from '../events/typing';
import { useTranslation } from 'react-i18next';
import { t } from '../i18n/i18n';
import { apiNarrow, narrowHash, otherPeople, type Narrow, type Term } from '../narrow/narrow';
import { MessageItem } from './MessageItem';
import { TopicActions } from '../channels/TopicActions';

/** Search terms as Zulip's search box writes them: `is:starred topic:lunch some words`. */
export function termsText(terms: Term[]): string {
  return terms.map((term) => (term.operator === 'search' ? term.operand : `${term.negated ? '-' : ''}${term.operator}:${/\s/.test(term.operand) ? `"${term.operand}"` : term.operand}`)).join(' ');
}

export function title(narrow: Narrow): string {
  switch (narrow.kind) {
    case 'all':
      return t('Combined feed');
    case 'search':
      if (narrow.terms.length === 1 && narrow.terms[0].operator === 'is' && narrow.terms[0].operand === 'starred') return t('Starred messages');
      if (narrow.terms.length === 1 && narrow.terms[0].operator === 'is' && narrow.terms[0].operand === 'mentioned') return t('Mentions');
      return t('Search: {{terms}}', { terms: termsText(narrow.terms) });
    case 'channel':
      return narrow.topic !== undefined ? `#${narrow.channelName} › ${narrow.topic}` : `#${narrow.channelName}`;
    case 'dm':
      return narrow.label;
  }
}

/** The narrow's messages (the region "Messages", each an article), who is typing, and the compose box. */
export function MessageView({ state, narrow }: { state: ChatState; narrow: Narrow }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: messagesKey(narrow),
    queryFn: ({ signal }) => fetchMessages(narrow, state.me.user_id, signal),
  });
  const messages = query.data?.messages ?? [];
  const list = useRef<HTMLElement>(null);
  const atBottom = useRef(true);
  const narrowText = JSON.stringify(narrow);

  // Only the messages in view (and a few around) are in the page: a narrow of 10,000 stays fast.
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => list.current,
    estimateSize: () => 64,
    overscan: 8,
    getItemKey: (index) => messages[index].id,
  });
  const totalSize = virtualizer.getTotalSize();

  // A new narrow starts at its newest message; new messages (and late measurements) keep the view at the bottom when it was there.
  useLayoutEffect(() => {
    atBottom.current = true;
  }, [narrowText]);
  useLayoutEffect(() => {
    const element = list.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [messages.length, totalSize, narrowText]);

  const older = useOlderMessages(narrow, query.data, list);
  useMarkReadWhenSeen(list, state, narrow);
  const selected = useKeyboard(messages, narrow, state, (index) => virtualizer.scrollToIndex(index, { align: 'auto' }));

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
      <div className="view-head">
        <h1>{title(narrow)}</h1>
        {narrow.kind === 'channel' && narrow.topic !== undefined && (
          <TopicActions state={state} channelId={narrow.channelId} channelName={narrow.channelName} topic={narrow.topic} messageId={messages.at(-1)?.id} />
        )}
      </div>
      <section
        aria-label={t('Messages')}
        className="messages"
        ref={list}
        tabIndex={0}
        onScroll={(event) => {
          const element = event.currentTarget;
          atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
          if (element.scrollTop < 400) older.load();
        }}
      >
        {older.loading && <p className="loading">{t('Loading older messages…')}</p>}
        {query.isPending && <p className="loading">{t('Loading messages…')}</p>}
        {query.isError && (
          <p role="alert">
            {t('Messages could not be loaded: {{error}}', { error: query.error.message })}{' '}
            <button type="button" onClick={() => void client.invalidateQueries({ queryKey: messagesKey(narrow) })}>
              {t('Retry')}
            </button>
          </p>
        )}
        {query.isSuccess && messages.length === 0 && <p className="empty">{narrow.kind === 'search' ? t('No messages match.') : t('No messages here yet.')}</p>}
        <div className="rows" style={{ height: totalSize }}>
          {virtualizer.getVirtualItems().map((row) => {
            const message = messages[row.index];
            return (
              <div key={row.key} className="row" data-index={row.index} ref={virtualizer.measureElement} style={{ transform: `translateY(${row.start}px)` }}>
                <MessageItem message={message} narrow={narrow} state={state} selected={message.id === selected} />
              </div>
            );
          })}
        </div>
      </section>
      <p className="typing" role="status" aria-live="polite">
        {typists.length > 0 && t('{{people}} is typing…', { people: typists.map((id) => state.users[id]?.full_name ?? t('Someone')).join(', '), count: typists.length })}
      </p>
      <Compose state={state} narrow={narrow} />
    </main>
  );
}

/**
 * Marks messages read as they are seen, as Zulip does: an unread message at least half in view
 * while the page is visible is sent to POST /messages/flags (batched); the update_message_flags
 * event then moves the counts.
 */
function useMarkReadWhenSeen(list: RefObject<HTMLElement | null>, state: ChatState, narrow: Narrow): void {
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
      if (ids.length > 0) void ok(typedApi.POST('/messages/flags', { body: { messages: ids, op: 'add', flag: 'read' } })).catch(() => undefined);
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
    // The list shows other messages as it scrolls (and as they arrive): those are watched too.
    const added = new MutationObserver((mutations) => {
      for (const mutation of mutations) {
        for (const node of mutation.addedNodes) {
          if (!(node instanceof HTMLElement)) continue;
          if (node.matches('article[data-id]')) observer.observe(node);
          for (const article of node.querySelectorAll('article[data-id]')) observer.observe(article);
        }
      }
    });
    added.observe(root, { childList: true, subtree: true });
    return () => {
      added.disconnect();
      observer.disconnect();
      clearTimeout(timer);
      flush();
    };
  }, [list, narrowText, visible]);
}

/**
 * Zulip's keys over the message list: j and k select the next and previous message, r replies to
 * the selected one (or the last), c starts a new conversation, Esc ends the selection. Keys typed
 * into a field are text, not commands.
 */
function useKeyboard(messages: Message[], narrow: Narrow, state: ChatState, scrollTo: (index: number) => void): number | undefined {
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const current = useRef({ messages, selected, narrow, scrollTo });
  current.current = { messages, selected, narrow, scrollTo };
  const narrowText = JSON.stringify(narrow);
  useEffect(() => setSelected(undefined), [narrowText]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      const { messages: list, selected: id, narrow: here, scrollTo: scroll } = current.current;
      const at = list.findIndex((message) => message.id === id);
      const move = (index: number) => {
        const at = Math.max(0, Math.min(list.length - 1, index));
        if (!list[at]) return;
        setSelected(list[at].id);
        scroll(at);
      };
      switch (event.key) {
        case 'j':
          move(at < 0 ? list.length - 1 : at + 1);
          break;
        case 'k':
          move(at < 0 ? list.length - 1 : at - 1);
          break;
        case 'r': {
          const message = list[at] ?? list.at(-1);
          if (!message) return;
          if (message.type === 'stream') requestCompose({ channelId: message.stream_id, topic: message.subject, focus: 'message' });
          else {
            const others = otherPeople(message, state.me.user_id);
            const dm: Narrow = { kind: 'dm', userIds: others.length > 0 ? others : [state.me.user_id], label: '' };
            if (here.kind !== 'dm') window.location.hash = narrowHash(dm);
            requestCompose({ focus: 'message' });
          }
          break;
        }
        case 'c':
          requestCompose(here.kind === 'dm' ? { focus: 'message' } : { topic: here.kind === 'channel' && here.topic !== undefined ? here.topic : '', focus: here.kind === 'channel' && here.topic !== undefined ? 'message' : 'topic' });
          break;
        case 'Escape':
          setSelected(undefined);
          return;
        default:
          return;
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [state.me.user_id]);
  return selected;
}

/**
 * Older messages, a page at a time, when the list is scrolled near its top (GET /messages before
 * the oldest one loaded), until the narrow's first message; added to the narrow's cached list.
 */
function useOlderMessages(narrow: Narrow, page: MessagePage | undefined, list: RefObject<HTMLElement | null>) {
  const client = useQueryClient();
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);
  const current = useRef({ narrow, page });
  current.current = { narrow, page };
  const keep = useRef<number | null>(null);
  const count = page?.messages.length ?? 0;
  // Once the older messages are in the page: the same messages where they were.
  useLayoutEffect(() => {
    const element = list.current;
    if (keep.current === null || !element) return;
    element.scrollTop = element.scrollHeight - keep.current;
    keep.current = null;
  }, [count, list]);
  return {
    loading,
    load() {
      const { narrow: here, page: loaded } = current.current;
      const oldest = loaded?.messages[0];
      if (busy.current || !loaded || loaded.foundOldest || !oldest) return;
      busy.current = true;
      setLoading(true);
      const key = messagesKey(here);
      api
        .get<{ messages: Message[]; found_oldest: boolean }>('/messages', {
          anchor: oldest.id,
          include_anchor: false,
          num_before: 100,
          num_after: 0,
          narrow: apiNarrow(here),
          apply_markdown: true,
          client_gravatar: false,
        })
        .then((answer) => {
          const element = list.current;
          // The messages read stay where they were on screen (see placed, after the list grew).
          if (element) keep.current = element.scrollHeight - element.scrollTop;
          client.setQueryData<MessagePage>(key, (cached) => {
            if (!cached) return cached;
            const known = new Set(cached.messages.map((m) => m.id));
            return { messages: [...answer.messages.filter((m) => !known.has(m.id)), ...cached.messages], foundOldest: answer.found_oldest };
          });
        })
        .catch(() => undefined)
        .finally(() => {
          busy.current = false;
          setLoading(false);
        });
    },
  };
}

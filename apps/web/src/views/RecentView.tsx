import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { UnreadCount } from '../channels/UnreadCount';
import { conversationKey, unreadCounts, type ChatState } from '../events/chat-state';
import { messagesKey } from '../events/dispatch';
import { fetchMessages } from '../messages/fetch-messages';
import { ALL } from '../narrow/narrow';
import { conversationOf } from './conversation';

/**
 * "Recent conversations": the conversations of the newest messages (the combined feed's, so
 * live messages move them up), with who wrote last and when.
 */
export function RecentView({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const feed = useQuery({ queryKey: messagesKey(ALL), queryFn: ({ signal }) => fetchMessages(ALL, state.me.user_id, signal) });
  const counts = unreadCounts(state);
  const latest = new Map<string, { sender: string; timestamp: number; topic?: string }>();
  for (const message of [...(feed.data?.messages ?? [])].reverse()) {
    const key = conversationKey(message, state.me.user_id);
    if (!latest.has(key)) latest.set(key, { sender: message.sender_full_name, timestamp: message.timestamp, topic: message.type === 'stream' ? message.subject : undefined });
  }
  return (
    <main className="view page">
      <h1>{t('Recent conversations')}</h1>
      <section aria-label={t('Recent conversations')} className="list">
        {feed.isPending && <p className="loading">{t('Loading…')}</p>}
        {feed.isSuccess && latest.size === 0 && <p className="empty">{t('No conversations yet.')}</p>}
        <ul>
          {[...latest].map(([key, last]) => {
            const conversation = conversationOf(key, last.topic !== undefined ? { ...state, topicNames: { ...state.topicNames, [key]: last.topic } } : state);
            const when = new Date(last.timestamp * 1000);
            return (
              <li key={key}>
                <a href={conversation.hash}>{conversation.name}</a>
                <UnreadCount count={counts.get(key) ?? 0} />
                <span className="muted">{last.sender}</span>
                <time className="muted" dateTime={when.toISOString()}>
                  {when.toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })}
                </time>
              </li>
            );
          })}
        </ul>
      </section>
    </main>
  );
}

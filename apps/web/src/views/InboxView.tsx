import { useTranslation } from 'react-i18next';
import { UnreadCount } from '../channels/UnreadCount';
import type { ChatState } from '../events/chat-state';
import { conversationOf } from './conversation';

/** "Inbox": the conversations with unread messages, the newest first, each a link with its count. */
export function InboxView({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const conversations = new Map<string, { count: number; newest: number }>();
  for (const [id, key] of Object.entries(state.unread)) {
    const entry = conversations.get(key) ?? { count: 0, newest: 0 };
    conversations.set(key, { count: entry.count + 1, newest: Math.max(entry.newest, Number(id)) });
  }
  const rows = [...conversations].sort((a, b) => b[1].newest - a[1].newest);
  return (
    <main className="view page">
      <h1>{t('Inbox')}</h1>
      <section aria-label={t('Inbox')} className="list">
        {rows.length === 0 && <p className="empty">{t('There are no unread messages in your inbox.')}</p>}
        <ul>
          {rows.map(([key, { count }]) => {
            const conversation = conversationOf(key, state);
            return (
              <li key={key}>
                <a href={conversation.hash}>{conversation.name}</a>
                <UnreadCount count={count} />
              </li>
            );
          })}
        </ul>
      </section>
    </main>
  );
}

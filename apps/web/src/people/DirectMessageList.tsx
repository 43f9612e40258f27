import { UnreadCount } from '../channels/UnreadCount';
import { useTranslation } from 'react-i18next';
import { dmKey, unreadCounts, type ChatState } from '../events/chat-state';
import { narrowHash, type Narrow } from '../narrow/narrow';
import { PresenceDot, StatusText, usePresenceClock } from './PersonStatus';

/**
 * The navigation landmark "Direct messages": a link per person to the conversation with them,
 * with their presence dot and status.
 */
export function DirectMessageList({ state, narrow }: { state: ChatState; narrow: Narrow }) {
  const { t } = useTranslation();
  const now = usePresenceClock();
  const counts = unreadCounts(state);
  const people = Object.values(state.users)
    .filter((user) => user.is_active !== false && !user.is_bot && user.user_id !== state.me.user_id)
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <nav aria-label={t('Direct messages')}>
      <h2>{t('Direct messages')}</h2>
      <ul>
        {people.map((person) => {
          const current = narrow.kind === 'dm' && narrow.userIds.length === 1 && narrow.userIds[0] === person.user_id;
          return (
            <li key={person.user_id}>
              <PresenceDot state={state} userId={person.user_id} now={now} />
              <a href={narrowHash({ kind: 'dm', userIds: [person.user_id], label: person.full_name })} aria-current={current ? 'page' : undefined}>
                {person.full_name}
              </a>
              <StatusText state={state} userId={person.user_id} />
              <UnreadCount count={counts.get(dmKey([person.user_id])) ?? 0} />
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

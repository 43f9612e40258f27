import { channelKey, unreadCounts, type ChatState } from '../events/chat-state';
import { useTranslation } from 'react-i18next';
import { narrowHash, type Narrow } from '../narrow/narrow';
import { TopicList } from './TopicList';
import { UnreadCount } from './UnreadCount';

/** The navigation landmark "Views" (Inbox, Recent conversations, …), then "Channels": each subscribed channel a link named by its name, with its unread count beside it. */
export function ChannelList({ state, narrow, page }: { state: ChatState; narrow: Narrow; page: string }) {
  const { t } = useTranslation();
  const counts = unreadCounts(state);
  const views: [string, string, number?][] = [
    ['#inbox', t('Inbox'), Object.keys(state.unread).length],
    ['#recent', t('Recent conversations')],
    ['#feed', t('Combined feed')],
    ['#narrow/is/mentioned', t('Mentions')],
    ['#narrow/is/starred', t('Starred messages')],
    ['#drafts', t('Drafts'), state.drafts.length],
    ['#scheduled', t('Scheduled messages'), state.scheduled.length],
  ];
  const here = page === 'narrow' ? (narrow.kind === 'all' ? '#feed' : narrowHash(narrow)) : `#${page}`;
  return (
    <>
      <nav aria-label={t('Views')} className="views">
        <ul>
          {views.map(([hash, name, count]) => (
            <li key={hash}>
              <a href={hash} aria-current={here === hash ? 'page' : undefined}>
                {name}
              </a>
              {count !== undefined && <UnreadCount count={count} />}
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label={t('Channels')}>
        <h2>{t('Channels')}</h2>
        {state.subscriptions.length === 0 && <p className="empty">{t('You are not subscribed to any channel.')}</p>}
        <ul>
          {state.subscriptions.map((sub) => {
            const current = narrow.kind === 'channel' && narrow.channelId === sub.stream_id;
            return (
              <li key={sub.stream_id}>
                <span className="swatch" aria-hidden="true" style={{ background: sub.color }} />
                <a href={narrowHash({ kind: 'channel', channelId: sub.stream_id, channelName: sub.name })} aria-current={current ? 'page' : undefined}>
                  {sub.name}
                </a>
                <UnreadCount count={counts.get(channelKey(sub.stream_id)) ?? 0} />
              </li>
            );
          })}
        </ul>
      </nav>
      {narrow.kind === 'channel' && <TopicList channelId={narrow.channelId} channelName={narrow.channelName} narrow={narrow} counts={counts} />}
    </>
  );
}

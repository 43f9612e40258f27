import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ok, typedApi } from '../api/typed-client';
import { topicKey } from '../events/chat-state';
import { topicsKey } from '../events/dispatch';
import { narrowHash, type Narrow } from '../narrow/narrow';
import { UnreadCount } from './UnreadCount';

/** The navigation landmark "Topics": the topics of the channel being read, newest first, each a link with its unread count. */
export function TopicList({ channelId, channelName, narrow, counts }: { channelId: number; channelName: string; narrow: Narrow; counts: Map<string, number> }) {
  const { t } = useTranslation();
  const topics = useQuery({
    queryKey: topicsKey(channelId),
    queryFn: async ({ signal }) => (await ok(typedApi.GET('/users/me/{stream_id}/topics', { params: { path: { stream_id: channelId } }, signal }))).topics,
  });
  if (!topics.data || topics.data.length === 0) return null;
  return (
    <nav aria-label={t('Topics')}>
      <h2>{t('Topics in #{{channel}}', { channel: channelName })}</h2>
      <ul className="topics">
      {topics.data.slice(0, 20).map((topic) => {
        const current = narrow.kind === 'channel' && narrow.topic !== undefined && narrow.topic.toLowerCase() === topic.name.toLowerCase();
        return (
          <li key={topic.name}>
            <a href={narrowHash({ kind: 'channel', channelId, channelName, topic: topic.name })} aria-current={current ? 'page' : undefined}>
              {topic.name || t('general chat')}
            </a>
            <UnreadCount count={counts.get(topicKey(channelId, topic.name)) ?? 0} />
          </li>
        );
      })}
      </ul>
    </nav>
  );
}

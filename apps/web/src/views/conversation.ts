import type { ChatState } from '../events/chat-state';
import { t } from '../i18n/i18n';
import { narrowHash } from '../narrow/narrow';

/** A conversation key's (chat-state) name and link: `#general › lunch`, or the people of a direct conversation. */
export function conversationOf(key: string, state: ChatState): { name: string; hash: string } {
  if (key.startsWith('c:')) {
    const slash = key.indexOf('/');
    const channelId = Number(key.slice(2, slash));
    const channelName = state.subscriptions.find((sub) => sub.stream_id === channelId)?.name ?? t('unknown channel');
    const topic = state.topicNames[key] ?? key.slice(slash + 1);
    return { name: `#${channelName} › ${topic || t('general chat')}`, hash: narrowHash({ kind: 'channel', channelId, channelName, topic }) };
  }
  const ids = key.slice(2).split(',').filter(Boolean).map(Number);
  const label = ids.length === 0 ? state.me.full_name : ids.map((id) => state.users[id]?.full_name ?? t('Someone')).join(', ');
  return { name: label, hash: narrowHash({ kind: 'dm', userIds: ids.length === 0 ? [state.me.user_id] : ids, label }) };
}

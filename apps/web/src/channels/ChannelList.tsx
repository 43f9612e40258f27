import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Subscription } from '../api/types';
import { channelKey, unreadCounts, type ChatState } from '../events/chat-state';
import { PinnedViews, pinnedBuiltIn } from '../views/PinnedViews';
import { narrowHash, type Narrow } from '../narrow/narrow';
import { TopicList } from './TopicList';
import { UnreadCount } from './UnreadCount';

/** The navigation landmark "Views" (Inbox, Recent conversations, …), then "Channels": each subscribed channel a link named by its name, with its unread count beside it. */
export function ChannelList({ state, narrow, page }: { state: ChatState; narrow: Narrow; page: string }) {
  const { t } = useTranslation();
  const counts = unreadCounts(state);
  const builtIn: [string, string, number?][] = [
    ['#inbox', t('Inbox'), Object.keys(state.unread).length],
    ['#recent', t('Recent conversations')],
    ['#feed', t('Combined feed')],
    ['#narrow/is/mentioned', t('Mentions')],
    ['#narrow/is/starred', t('Starred messages')],
    ['#drafts', t('Drafts'), state.drafts.length],
    ['#scheduled', t('Scheduled messages'), state.scheduled.length],
    ['#reminders', t('Reminders'), state.reminders.length],
  ];
  // A built-in view I unpinned leaves the list (Zulip moves it to "More views"); the current one stays.
  const views = builtIn.filter(([hash]) => pinnedBuiltIn(state, hash.slice(1)));
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
        <PinnedViews state={state} here={here} />
      </nav>
      <nav aria-label={t('Channels')}>
        <h2>{t('Channels')}</h2>
        {state.subscriptions.length === 0 && <p className="empty">{t('You are not subscribed to any channel.')}</p>}
        {channelGroups(state, t('Pinned channels'), t('Other channels')).map((group) => (
          <ChannelGroup key={group.key} name={group.name} channels={group.channels} narrow={narrow} counts={counts} />
        ))}
      </nav>
      {narrow.kind === 'channel' && <TopicList channelId={narrow.channelId} channelName={narrow.channelName} narrow={narrow} counts={counts} />}
    </>
  );
}

/**
 * The sidebar's channel groups, as Zulip's left sidebar: pinned channels first, then each channel
 * folder in the organization's order, then the other channels; with no pin and no folder, one
 * list without a heading.
 */
export function channelGroups(state: ChatState, pinnedName: string, otherName: string): { key: string; name?: string; channels: Subscription[] }[] {
  const pinned = state.subscriptions.filter((sub) => sub.pin_to_top);
  const rest = state.subscriptions.filter((sub) => !sub.pin_to_top);
  const folders = state.folders
    .filter((folder) => !folder.is_archived)
    .map((folder) => ({ key: `f${folder.id}`, name: folder.name, channels: rest.filter((sub) => sub.folder_id === folder.id) }))
    .filter((group) => group.channels.length > 0);
  const inFolder = new Set(folders.flatMap((group) => group.channels.map((sub) => sub.stream_id)));
  const others = rest.filter((sub) => !inFolder.has(sub.stream_id));
  if (pinned.length === 0 && folders.length === 0) return [{ key: 'all', channels: others }];
  return [
    ...(pinned.length > 0 ? [{ key: 'pinned', name: pinnedName, channels: pinned }] : []),
    ...folders,
    ...(others.length > 0 ? [{ key: 'other', name: otherName, channels: others }] : []),
  ];
}

/** One group of channels: a list, under a heading that names the group when it has one. */
function ChannelGroup({ name, channels, narrow, counts }: { name?: string; channels: Subscription[]; narrow: Narrow; counts: Map<string, number> }) {
  const headingId = useId();
  const list = (
    <ul>
      {channels.map((sub) => {
        const current = narrow.kind === 'channel' && narrow.channelId === sub.stream_id;
        return (
          <li key={sub.stream_id} className={sub.is_muted ? 'muted' : undefined}>
            <span className="swatch" aria-hidden="true" style={{ background: sub.color }} />
            <a href={narrowHash({ kind: 'channel', channelId: sub.stream_id, channelName: sub.name })} aria-current={current ? 'page' : undefined}>
              {sub.name}
            </a>
            <UnreadCount count={sub.is_muted ? 0 : (counts.get(channelKey(sub.stream_id)) ?? 0)} />
          </li>
        );
      })}
    </ul>
  );
  if (name === undefined) return list;
  return (
    <div role="group" aria-labelledby={headingId} className="channel-group">
      <h3 id={headingId}>{name}</h3>
      {list}
    </div>
  );
}

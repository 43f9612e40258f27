import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { logOut } from '../api/client';
import { ChannelList } from '../channels/ChannelList';
import { CHAT_STATE, type ChatState } from '../events/chat-state';
import { startEventQueue } from '../events/event-queue';
import { MessageView } from '../messages/MessageView';
import { ALL } from '../narrow/narrow';
import { SearchBox } from '../search/SearchBox';
import { DraftsView } from '../views/DraftsView';
import { InboxView } from '../views/InboxView';
import { RecentView } from '../views/RecentView';
import { RemindersView } from '../views/RemindersView';
import { ScheduledView } from '../views/ScheduledView';
import { AdminPage } from '../settings/AdminPage';
import { SettingsPage } from '../settings/SettingsPage';
import { useRoute } from './route';
import { DirectMessageList } from '../people/DirectMessageList';
import { startPresenceReporter } from '../people/presence';
import { StatusDialog } from '../people/StatusDialog';
import { SESSION } from './App';

/** The logged-in app: the event queue runs while it is shown. */
export function ChatApp() {
  const { t } = useTranslation();
  const client = useQueryClient();
  useEffect(() => startEventQueue(client), [client]);
  useEffect(() => startPresenceReporter(client), [client]);
  const [settingStatus, setSettingStatus] = useState(false);
  const state = useQuery<ChatState>({ queryKey: CHAT_STATE, queryFn: skipToken }).data;
  const route = useRoute(state);
  const narrow = route.page === 'narrow' ? route.narrow : ALL;
  useTheme(state?.colorScheme ?? 1);
  const [leaving, setLeaving] = useState(false);

  async function leave() {
    setLeaving(true);
    try {
      await logOut();
    } finally {
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION[0] });
      client.setQueryData(SESSION, null);
      window.location.hash = '';
    }
  }

  if (!state) return <p className="loading">{t('Loading…')}</p>;
  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" href="#feed">
          {state.realmName || 'teamchat'}
        </a>
        <SearchBox state={state} narrow={narrow} />
        <span className="me">{state.me.full_name}</span>
        <button type="button" className="secondary" aria-expanded={settingStatus} onClick={() => setSettingStatus(!settingStatus)}>
          {t('Set status')}
        </button>
        {settingStatus && <StatusDialog state={state} onClose={() => setSettingStatus(false)} />}
        <a href="#settings" aria-current={route.page === 'settings' ? 'page' : undefined}>
          {t('Settings')}
        </a>
        {state.me.isAdmin ? (
          <a href="#organization/users" aria-current={route.page === 'admin' ? 'page' : undefined}>
            {t('Organization')}
          </a>
        ) : (
          // Members see the organization's custom emoji (and add them, as the organization allows).
          <a href="#organization/emoji" aria-current={route.page === 'admin' ? 'page' : undefined}>
            {t('Custom emoji')}
          </a>
        )}
        <button type="button" onClick={() => void leave()} disabled={leaving}>
          {t('Log out')}
        </button>
      </header>
      <aside className="sidebar">
        <ChannelList state={state} narrow={narrow} page={route.page} />
        <DirectMessageList state={state} narrow={narrow} />
      </aside>
      {route.page === 'narrow' && <MessageView state={state} narrow={narrow} />}
      {route.page === 'inbox' && <InboxView state={state} />}
      {route.page === 'recent' && <RecentView state={state} />}
      {route.page === 'drafts' && <DraftsView state={state} />}
      {route.page === 'scheduled' && <ScheduledView state={state} />}
      {route.page === 'reminders' && <RemindersView state={state} />}
      {route.page === 'settings' && <SettingsPage state={state} />}
      {route.page === 'admin' && <AdminPage state={state} />}
    </div>
  );
}

/** Zulip's color_scheme on the page: 1 follows the system, 2 dark, 3 light. */
function useTheme(scheme: number): void {
  useEffect(() => {
    const root = document.documentElement;
    if (scheme === 2) root.dataset.theme = 'dark';
    else if (scheme === 3) root.dataset.theme = 'light';
    else delete root.dataset.theme;
  }, [scheme]);
}

import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { logOut } from '../api/client';
import { ChannelList } from '../channels/ChannelList';
import { CHAT_STATE, type ChatState } from '../events/chat-state';
import { startEventQueue } from '../events/event-queue';
import { MessageView } from '../messages/MessageView';
import { useNarrow } from '../narrow/useNarrow';
import { DirectMessageList } from '../people/DirectMessageList';
import { SESSION } from './App';

/** The logged-in app: the event queue runs while it is shown. */
export function ChatApp() {
  const { t } = useTranslation();
  const client = useQueryClient();
  useEffect(() => startEventQueue(client), [client]);
  const state = useQuery<ChatState>({ queryKey: CHAT_STATE, queryFn: skipToken }).data;
  const narrow = useNarrow(state);
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
        <span className="me">{state.me.full_name}</span>
        <button type="button" onClick={() => void leave()} disabled={leaving}>
          {t('Log out')}
        </button>
      </header>
      <aside className="sidebar">
        <ChannelList state={state} narrow={narrow} />
        <DirectMessageList state={state} narrow={narrow} />
      </aside>
      <MessageView state={state} narrow={narrow} />
    </div>
  );
}

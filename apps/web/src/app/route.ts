import { useEffect, useState } from 'react';
import type { ChatState } from '../events/chat-state';
import { parseHash, type Narrow } from '../narrow/narrow';

/** What the main area shows, as Zulip's URL fragments name it: a narrow, or one of the views and pages. */
export type Route = { page: 'narrow'; narrow: Narrow } | { page: 'inbox' | 'recent' | 'drafts' | 'scheduled' | 'reminders' | 'settings' | 'admin' };

const PAGES: Record<string, Exclude<Route, { page: 'narrow' }>['page']> = {
  inbox: 'inbox',
  recent: 'recent',
  drafts: 'drafts',
  scheduled: 'scheduled',
  reminders: 'reminders',
  settings: 'settings',
  organization: 'admin',
};

export function parseRoute(hash: string, state: ChatState | undefined): Route {
  const first = hash.replace(/^#/, '').split('/')[0];
  const page = PAGES[first];
  if (page) return { page };
  return {
    page: 'narrow',
    narrow: parseHash(hash, {
      channel: (id) => state?.subscriptions.find((sub) => sub.stream_id === id)?.name,
      person: (id) => state?.users[id]?.full_name,
    }),
  };
}

/** The route the URL's fragment names, followed as it changes (links, the back button). */
export function useRoute(state: ChatState | undefined): Route {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const changed = () => setHash(window.location.hash);
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return parseRoute(hash, state);
}

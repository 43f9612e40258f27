import { useEffect, useState } from 'react';
import type { ChatState } from '../events/chat-state';
import { parseHash, type Narrow } from './narrow';

/** The narrow the URL's fragment names, followed as it changes (links, the back button). */
export function useNarrow(state: ChatState | undefined): Narrow {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const changed = () => setHash(window.location.hash);
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return parseHash(hash, {
    channel: (id) => state?.subscriptions.find((sub) => sub.stream_id === id)?.name,
    person: (id) => state?.users[id]?.full_name,
  });
}

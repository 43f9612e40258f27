import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatState } from '../events/chat-state';
import { emojiGlyph } from '../messages/emoji';
import { presenceOf } from './presence';

/** Re-renders every half minute, so presence fades from active to idle to offline without an event. */
export function usePresenceClock(): number {
  const [now, setNow] = useState(() => Date.now() / 1000);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now() / 1000), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** A person's presence dot: an image named "Active", "Idle" or "Offline". */
export function PresenceDot({ state, userId, now }: { state: ChatState; userId: number; now: number }) {
  const { t } = useTranslation();
  const presence = presenceOf(state, userId, now);
  const label = presence === 'active' ? t('Active') : presence === 'idle' ? t('Idle') : t('Offline');
  return <span className={`presence ${presence}`} role="img" aria-label={label} title={label} />;
}

/** A person's status (its emoji and text), or nothing. */
export function StatusText({ state, userId }: { state: ChatState; userId: number }) {
  const status = state.statuses[userId];
  const emoji = status?.emoji_name ? emojiGlyph(status.emoji_code ?? '', status.reaction_type || 'unicode_emoji', status.emoji_name) : '';
  if (!emoji && !status?.status_text) return null;
  return (
    <span className="status" title={status?.emoji_name ? `:${status.emoji_name}:` : undefined}>
      {emoji && `${emoji} `}
      {status?.status_text}
    </span>
  );
}

import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatState } from '../events/chat-state';
import { termsText } from '../messages/MessageView';
import { narrowHash, type Narrow } from '../narrow/narrow';
import { parseSearch } from './parse-search';

/** The text a narrow's search box shows (Zulip writes the narrow back as operators). */
function narrowText(narrow: Narrow): string {
  switch (narrow.kind) {
    case 'search':
      return termsText(narrow.terms);
    case 'channel':
      return termsText([{ operator: 'channel', operand: narrow.channelName }, ...(narrow.topic !== undefined ? [{ operator: 'topic', operand: narrow.topic }] : [])]);
    default:
      return '';
  }
}

/** The search landmark: searchbox "Search" with Zulip's operators; `/` focuses it, Esc leaves it. */
export function SearchBox({ state, narrow }: { state: ChatState; narrow: Narrow }) {
  const { t } = useTranslation();
  const [text, setText] = useState(narrowText(narrow));
  const input = useRef<HTMLInputElement>(null);
  const current = narrowText(narrow);
  useEffect(() => setText(current), [current]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <form
      role="search"
      aria-label={t('Search')}
      className="search"
      onSubmit={(event) => {
        event.preventDefault();
        const byName = (name: string) => state.subscriptions.find((sub) => sub.name.toLowerCase() === name.toLowerCase())?.stream_id;
        window.location.hash = narrowHash(parseSearch(text, byName));
        input.current?.blur();
      }}
    >
      <input
        ref={input}
        type="search"
        aria-label={t('Search')}
        placeholder={t('Search (/)')}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            setText(current);
            event.currentTarget.blur();
          }
        }}
      />
    </form>
  );
}

/** Whether a key went to a field (where letters are text, not shortcuts). */
export function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

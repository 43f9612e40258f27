import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { ok, typedApi } from '../api/typed-client';
import type { ChatState } from '../events/chat-state';
import { topicsKey } from '../events/dispatch';
import {
  applySuggestion,
  channelSuggestions,
  emojiSuggestions,
  findTrigger,
  mentionSuggestions,
  topicSuggestions,
  type Suggestion,
} from './autocomplete';
import { loadEmojiNames } from '../messages/emoji-names';


/**
 * The compose box's autocomplete, as ARIA's combobox pattern on a textbox: while a mention, a
 * channel, a topic or an emoji is being typed, a listbox "Suggestions" opens under the box;
 * ArrowDown/ArrowUp move the choice (aria-activedescendant), Enter or Tab take it (Zulip's
 * syntax goes in), Escape closes it. The textbox keeps its role: the pattern adds
 * aria-autocomplete, aria-controls and aria-expanded to it.
 */
export function useAutocomplete(state: ChatState, text: string, setText: (text: string) => void, box: RefObject<HTMLTextAreaElement | null>) {
  const { t } = useTranslation();
  const listId = useId();
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [emoji, setEmoji] = useState<{ name: string; code: string }[] | null>(null);
  // Where the caret goes once a chosen suggestion is in the text: set as React commits it, before
  // the next keystroke (a timer could fire after one and send the caret back).
  const pendingCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (pendingCaret.current === null || !box.current) return;
    box.current.focus();
    box.current.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = null;
  }, [text, box]);

  const trigger = caret === null ? null : findTrigger(text, caret);
  const channel = trigger?.kind === 'topic' ? state.subscriptions.find((sub) => sub.name.toLowerCase() === trigger.channel.toLowerCase()) : undefined;
  const topics = useQuery({
    queryKey: topicsKey(channel?.stream_id ?? 0),
    queryFn: async ({ signal }) => (await ok(typedApi.GET('/users/me/{stream_id}/topics', { params: { path: { stream_id: channel!.stream_id } }, signal }))).topics,
    enabled: channel !== undefined,
  });
  useEffect(() => {
    if (trigger?.kind === 'emoji' && !emoji) void loadEmojiNames().then(setEmoji);
  }, [trigger?.kind, emoji]);

  const suggestions: Suggestion[] = useMemo(() => {
    if (!trigger) return [];
    switch (trigger.kind) {
      case 'mention':
        return mentionSuggestions(state, trigger.query, trigger.silent);
      case 'channel':
        return channelSuggestions(state, trigger.query);
      case 'topic':
        return channel ? topicSuggestions(channel.name, (topics.data ?? []).map((topic) => topic.name), trigger.query) : [];
      case 'emoji':
        return emoji ? emojiSuggestions(emoji, trigger.query) : [];
    }
  }, [trigger?.kind, trigger?.query, trigger?.start, state, channel, topics.data, emoji]);

  const identity = trigger ? `${trigger.start}:${trigger.kind}` : null;
  const open = trigger !== null && suggestions.length > 0 && dismissed !== identity;
  useEffect(() => setActive(0), [identity, trigger?.query]);
  const current = Math.min(active, suggestions.length - 1);
  const optionId = (index: number) => `${listId}-${index}`;

  function choose(suggestion: Suggestion) {
    if (!trigger || caret === null) return;
    const next = applySuggestion(text, trigger.start, caret, suggestion.insert);
    pendingCaret.current = next.caret;
    setText(next.text);
    setCaret(next.caret);
  }

  /** Handles the keys the open list takes; true when it took this one. */
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean {
    if (!open) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + suggestions.length) % suggestions.length);
      return true;
    }
    if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      event.preventDefault();
      choose(suggestions[current]);
      return true;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      setDismissed(identity);
      return true;
    }
    return false;
  }

  /** Where the caret is now (after typing, a click or a move). */
  const track = () => setCaret(box.current?.selectionEnd ?? null);

  const textboxProps = {
    'aria-autocomplete': 'list' as const,
    'aria-controls': open ? listId : undefined,
    'aria-expanded': open,
    'aria-activedescendant': open ? optionId(current) : undefined,
    onSelect: track,
  };

  const list = open ? (
    <ul id={listId} role="listbox" aria-label={t('Suggestions')} className="autocomplete">
      {suggestions.map((suggestion, index) => (
        <li
          key={suggestion.key}
          id={optionId(index)}
          role="option"
          aria-selected={index === current}
          onMouseDown={(event) => {
            event.preventDefault(); // the textbox keeps the focus
            choose(suggestion);
          }}
          onMouseEnter={() => setActive(index)}
        >
          <span className="label">{suggestion.label}</span>
          {suggestion.detail && <span className="detail"> {suggestion.detail}</span>}
        </li>
      ))}
    </ul>
  ) : null;

  return { textboxProps, onKeyDown, list };
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RealmEmoji } from '../api/types';
import { emojiGlyph } from './emoji';
import { EmojiGlyph } from './EmojiGlyph';
import { findEmoji, loadEmojiNames } from './emoji-names';

/**
 * The emoji picker's search: a textbox "Search emoji" over every emoji's name (loaded when the
 * picker opens), each match a button named by the emoji's name.
 */
export function EmojiSearch({ onPick, custom = [] }: { onPick: (emoji: { name: string; code: string; type?: string }) => void; custom?: RealmEmoji[] }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [all, setAll] = useState<{ name: string; code: string }[] | null>(null);
  useEffect(() => {
    void loadEmojiNames().then(setAll);
  }, []);
  // The organization's custom emoji first, as Zulip's picker lists them.
  const customMatches = findEmoji(
    custom.map((emoji) => ({ name: emoji.name, code: emoji.id })),
    query,
    24,
  );
  const byId = Object.fromEntries(custom.map((emoji) => [emoji.id, emoji]));
  const found = [...customMatches.map((emoji) => ({ ...emoji, type: 'realm_emoji' })), ...(all ? findEmoji(all, query, 24) : []).map((emoji) => ({ ...emoji, type: 'unicode_emoji' }))].slice(0, 24);
  return (
    <div className="emoji-search">
      <input type="search" aria-label={t('Search emoji')} placeholder={t('Search emoji')} value={query} onChange={(event) => setQuery(event.target.value)} autoFocus />
      {found.length > 0 && (
        <div role="group" aria-label={t('Matching emoji')}>
          {found.map((emoji) => (
            <button key={`${emoji.type}:${emoji.name}`} type="button" aria-label={emoji.name} title={`:${emoji.name}:`} onClick={() => onPick(emoji)}>
              {emoji.type === 'realm_emoji' ? <EmojiGlyph code={emoji.code} type="realm_emoji" name={emoji.name} realmEmoji={byId} /> : emojiGlyph(emoji.code, 'unicode_emoji', emoji.name)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { emojiGlyph } from './emoji';
import { findEmoji, loadEmojiNames } from './emoji-names';

/**
 * The emoji picker's search: a textbox "Search emoji" over every emoji's name (loaded when the
 * picker opens), each match a button named by the emoji's name.
 */
export function EmojiSearch({ onPick }: { onPick: (emoji: { name: string; code: string }) => void }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [all, setAll] = useState<{ name: string; code: string }[] | null>(null);
  useEffect(() => {
    void loadEmojiNames().then(setAll);
  }, []);
  const found = all ? findEmoji(all, query, 24) : [];
  return (
    <div className="emoji-search">
      <input type="search" aria-label={t('Search emoji')} placeholder={t('Search emoji')} value={query} onChange={(event) => setQuery(event.target.value)} autoFocus />
      {found.length > 0 && (
        <div role="group" aria-label={t('Matching emoji')}>
          {found.map((emoji) => (
            <button key={emoji.name} type="button" aria-label={emoji.name} title={`:${emoji.name}:`} onClick={() => onPick(emoji)}>
              {emojiGlyph(emoji.code, 'unicode_emoji', emoji.name)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

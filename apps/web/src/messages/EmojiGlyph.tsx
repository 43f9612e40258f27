import type { RealmEmoji } from '../api/types';
import { emojiGlyph } from './emoji';

/** An emoji as a reaction or the picker shows it: a custom emoji's image (named by its name), or the Unicode characters. */
export function EmojiGlyph({ code, type, name, realmEmoji }: { code: string; type: string; name: string; realmEmoji: Record<string, RealmEmoji> }) {
  const custom = type === 'realm_emoji' ? realmEmoji[code] : undefined;
  if (custom) return <img className="emoji-img" src={custom.source_url} alt={`:${name}:`} />;
  return <>{emojiGlyph(code, type, name)}</>;
}

/** The organization's active custom emoji, by name. */
export const activeCustomEmoji = (realmEmoji: Record<string, RealmEmoji>) =>
  Object.values(realmEmoji)
    .filter((emoji) => !emoji.deactivated)
    .sort((a, b) => a.name.localeCompare(b.name));

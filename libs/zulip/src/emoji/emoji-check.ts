import { badRequest } from '../errors';
import type { EmojiCatalogue } from './emoji-catalogue';

/** Zulip's reaction types (also a status emoji's). */
export type EmojiType = 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';

/** The organization's custom emoji, as the checks need them. */
export interface CustomEmojiLookup {
  /** The active custom emoji called `name`. */
  activeByName(name: string): Promise<{ id: number } | null>;
  /** The custom emoji with this id, deactivated or not. */
  byId(id: number): Promise<{ id: number; name: string; deactivated: boolean } | null>;
}

/** The interface's name for the bundled emoji type; Zulip's is `zulip_extra_emoji`. */
export const emojiTypeOf = (type: string | undefined): string | undefined => (type === 'server_extra_emoji' ? 'zulip_extra_emoji' : type);

/** A custom emoji's code is its id written plainly (`07` names none, as in Zulip's lookup by str(id)). */
const customEmojiId = (code: string): number | null => (/^[1-9][0-9]{0,9}$/.test(code) ? Number(code) : null);

/**
 * Zulip's get_emoji_data: a custom emoji of that name, else the `zulip` emoji, else Unicode.
 * Used by statuses and reactions alike.
 */
export async function lookUpEmoji(name: string, catalogue: EmojiCatalogue, custom: CustomEmojiLookup): Promise<{ code: string; type: EmojiType }> {
  const customEmoji = await custom.activeByName(name);
  if (customEmoji) return { code: String(customEmoji.id), type: 'realm_emoji' };
  if (name === 'zulip') return { code: 'zulip', type: 'zulip_extra_emoji' };
  const code = catalogue.codeOf(name);
  if (code !== undefined) return { code, type: 'unicode_emoji' };
  throw badRequest(`Emoji '${name}' does not exist`);
}

/** Zulip's check_emoji_request: is this code valid in its type's namespace, under this name? */
export async function checkEmoji(name: string, code: string, type: string, catalogue: EmojiCatalogue, custom: CustomEmojiLookup): Promise<void> {
  switch (type) {
    case 'realm_emoji': {
      const id = customEmojiId(code);
      const emoji = id === null ? null : await custom.byId(id);
      if (!emoji) throw badRequest('Invalid custom emoji.');
      if (emoji.name !== name) throw badRequest('Invalid custom emoji name.');
      if (emoji.deactivated) throw badRequest('This custom emoji has been deactivated.');
      return;
    }
    case 'zulip_extra_emoji':
      if (code !== 'zulip') throw badRequest('Invalid emoji code.');
      if (name !== code) throw badRequest('Invalid emoji name.');
      return;
    case 'unicode_emoji':
      if (!catalogue.isCode(code)) throw badRequest('Invalid emoji code.');
      if (catalogue.codeOf(name) !== code) throw badRequest('Invalid emoji name.');
      return;
    default:
      throw badRequest('Invalid emoji type.');
  }
}

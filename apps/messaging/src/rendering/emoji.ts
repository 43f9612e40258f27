import type { MarkdownIt } from 'markdown-it';
import { emojiCatalogue } from '@teamchat/zulip';

const EMOJI = /^:([a-z0-9_+-]+):/;

/** What rendering knows of the organization's custom emoji: each active one's image URL, by name. */
export interface CustomEmojiEnv {
  customEmoji?: ReadonlyMap<string, string>;
}

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Zulip's `:name:` emoji (zerver/lib/markdown Emoji pattern). The organization's active custom
 * emoji of that name comes first (custom emoji may override built-in ones) and becomes Zulip's
 * `<img alt=":name:" class="emoji" src="/user_avatars/…" title="name">` (make_realm_emoji: the
 * title with spaces for underscores); otherwise a Unicode emoji the catalogue knows becomes
 * `<span aria-label="name" class="emoji emoji-<code>" role="img" title="name">:name:</span>`,
 * whose clients draw the emoji from the code; an unknown name stays text.
 */
export function emojiPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('emphasis', 'zulip_emoji', (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
    const match = EMOJI.exec(state.src.slice(state.pos));
    if (!match) return false;
    const name = match[1];
    const custom = (state.env as CustomEmojiEnv | undefined)?.customEmoji?.get(name);
    const code = custom === undefined ? emojiCatalogue().codeOf(name) : undefined;
    if (custom === undefined && !code) return false;
    if (!silent) {
      state.push('html_inline', '', 0).content =
        custom !== undefined
          ? `<img alt=":${name}:" class="emoji" src="${escapeAttribute(custom)}" title="${name.replace(/_/g, ' ')}">`
          : `<span aria-label="${name}" class="emoji emoji-${code}" role="img" title="${name}">:${name}:</span>`;
    }
    state.pos += match[0].length;
    return true;
  });
}

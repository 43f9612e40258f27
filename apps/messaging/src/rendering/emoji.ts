import type { MarkdownIt } from 'markdown-it';
import { emojiCatalogue } from '@teamchat/zulip';

const EMOJI = /^:([a-z0-9_+-]+):/;

/**
 * Zulip's `:name:` emoji (zerver/lib/markdown Emoji pattern): a Unicode emoji the catalogue knows
 * becomes `<span aria-label="name" class="emoji emoji-<code>" role="img" title="name">:name:</span>`,
 * Zulip's markup, whose clients draw the emoji from the code; an unknown name stays text.
 */
export function emojiPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('emphasis', 'zulip_emoji', (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
    const match = EMOJI.exec(state.src.slice(state.pos));
    const code = match && emojiCatalogue().codeOf(match[1]);
    if (!match || !code) return false;
    if (!silent) {
      const name = match[1];
      state.push('html_inline', '', 0).content = `<span aria-label="${name}" class="emoji emoji-${code}" role="img" title="${name}">:${name}:</span>`;
    }
    state.pos += match[0].length;
    return true;
  });
}

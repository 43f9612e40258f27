import MarkdownIt from 'markdown-it';
import { channelLinksPlugin, type ChannelLinkEnv } from './channel-links';
import { emojiPlugin, type CustomEmojiEnv } from './emoji';
import { linkifiersPlugin, type LinkifierEnv } from './linkifiers';
import { mentionsPlugin, type MentionEnv } from './mentions';
import { quoteSpoilerPlugin } from './quote-spoiler';

/**
 * The one Markdown renderer. Raw HTML is never passed through (`html: false` escapes it), and
 * markdown-it's link validation refuses `javascript:`, `vbscript:` and `data:` (except images)
 * URLs. Single newlines become `<br>` as in Zulip.
 */
const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });

// Links open outside the app, without handing it the opener.
const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet('target', '_blank');
  tokens[idx].attrSet('rel', 'noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

md.use(mentionsPlugin);
md.use(quoteSpoilerPlugin);
md.use(emojiPlugin);
md.use(channelLinksPlugin);
md.use(linkifiersPlugin);

/**
 * Renders Markdown; pass a MentionEnv to resolve mentions (and learn who was mentioned), with
 * the channels it may link to, the organization's custom emoji and its linkifiers.
 */
export function renderMarkdown(source: string, mentions?: MentionEnv & ChannelLinkEnv & CustomEmojiEnv & LinkifierEnv): string {
  return md.render(source, (mentions ?? {}) as Record<string, unknown>).trimEnd();
}

export { md as markdownEngine };

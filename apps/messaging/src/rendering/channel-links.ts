import type { MarkdownIt } from 'markdown-it';

/** A channel a message may link to (`#**name**`, `#**name>topic**`). */
export interface ChannelLinkTarget {
  id: number;
  name: string;
}

/** What rendering knows of the channels a text may link to: by lowercased name. */
export interface ChannelLinkEnv {
  channels?: Map<string, ChannelLinkTarget>;
}

const LINK = /^#\*\*([^*>\n]+?)(?:>([^*\n]+?))?\*\*/;

/** The channel names a text may link to, to look up before rendering. */
export function channelLinkCandidates(source: string): string[] {
  return [...new Set([...source.matchAll(/#\*\*([^*>\n]+?)(?:>[^*\n]+?)?\*\*/g)].map((match) => match[1]))];
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Zulip's URL fragment encoding (web/src/internal_url.ts encodeHashComponent). */
const HASH_REPLACEMENTS: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };
const encodeHashComponent = (text: string) => encodeURIComponent(text).replace(/[%().]/g, (matched) => HASH_REPLACEMENTS[matched]);
const channelSlug = (channel: ChannelLinkTarget) => `${channel.id}-${encodeHashComponent(channel.name.replace(/ /g, '-'))}`;

/**
 * Zulip's channel and topic links (zerver/lib/markdown StreamPattern, StreamTopicPattern): a
 * channel the env knows becomes `<a class="stream" data-stream-id="…" href="/#narrow/channel/…">#name</a>`,
 * with a topic `<a class="stream-topic" …>#name &gt; topic</a>`; an unknown name stays text.
 */
export function channelLinksPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('emphasis', 'zulip_channel_link', (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x23 /* # */) return false;
    const match = LINK.exec(state.src.slice(state.pos));
    const channel = match && (state.env as ChannelLinkEnv | undefined)?.channels?.get(match[1].trim().toLowerCase());
    if (!match || !channel) return false;
    if (!silent) {
      const topic = match[2]?.trim();
      const href = `/#narrow/channel/${channelSlug(channel)}${topic === undefined ? '' : `/topic/${encodeHashComponent(topic)}`}`;
      state.push('html_inline', '', 0).content =
        topic === undefined
          ? `<a class="stream" data-stream-id="${channel.id}" href="${href}">#${escapeHtml(channel.name)}</a>`
          : `<a class="stream-topic" data-stream-id="${channel.id}" href="${href}">#${escapeHtml(channel.name)} &gt; ${escapeHtml(topic)}</a>`;
    }
    state.pos += match[0].length;
    return true;
  });
}

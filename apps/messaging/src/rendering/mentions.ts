import type MarkdownIt from 'markdown-it';

/** Zulip's wildcard names (zerver/lib/mention.py). */
export const CHANNEL_WILDCARDS = ['all', 'everyone', 'channel', 'stream'];
export const TOPIC_WILDCARD = 'topic';

export interface MentionTarget {
  id: number;
  fullName: string;
}

/** A user group a message may mention (`@*name*`). */
export interface GroupMentionTarget {
  id: number;
  name: string;
}

/** What rendering learns about mentions, for the message's flags and permission checks. */
export interface MentionEnv {
  /** Users that may be mentioned, by lowercased full name and by id. */
  byName: Map<string, MentionTarget[]>;
  byId: Map<number, MentionTarget>;
  mentionedUserIds: Set<number>;
  /** Active named groups that may be mentioned, by name; and those mentioned (not silently). */
  groupsByName: Map<string, GroupMentionTarget>;
  mentionedGroupIds: Set<number>;
  channelWildcard: boolean;
  topicWildcard: boolean;
}

export const newMentionEnv = (users: MentionTarget[], groups: GroupMentionTarget[] = []): MentionEnv => {
  const byName = new Map<string, MentionTarget[]>();
  for (const user of users) byName.set(user.fullName.toLowerCase(), [...(byName.get(user.fullName.toLowerCase()) ?? []), user]);
  return {
    byName,
    byId: new Map(users.map((u) => [u.id, u])),
    mentionedUserIds: new Set(),
    groupsByName: new Map(groups.map((g) => [g.name, g])),
    mentionedGroupIds: new Set(),
    channelWildcard: false,
    topicWildcard: false,
  };
};

const MENTION = /^@(_?)\*\*([^*\n]+?)\*\*/;
/** `@*group*` and the silent `@_*group*` (never the start of a user mention's `**`). */
const GROUP_MENTION = /^@(_?)\*(?!\*)([^*\n]+?)\*/;

/** The group names a text may mention, to look up before rendering. */
export function groupMentionCandidates(source: string): string[] {
  return [...new Set([...source.matchAll(/@_?\*(?!\*)([^*\n]+?)\*/g)].map((match) => match[1]))];
}

/** The names a text may mention, to look up before rendering (`@**Name**` and `@**Name|id**`). */
export function mentionCandidates(source: string): { names: string[]; ids: number[] } {
  const names = new Set<string>();
  const ids = new Set<number>();
  for (const match of source.matchAll(/@_?\*\*([^*\n]+?)\*\*/g)) {
    const [name, id] = match[1].split('|');
    if (id !== undefined && /^\d{1,10}$/.test(id)) ids.add(Number(id));
    if (name.trim()) names.add(name.trim().toLowerCase());
  }
  return { names: [...names], ids: [...ids] };
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Adds Zulip's mention syntax to markdown-it, rendering Zulip's HTML for each kind. */
export const mentionsPlugin = (md: InstanceType<typeof MarkdownIt>): void => {
  md.inline.ruler.before('emphasis', 'zulip_mention', (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */) return false;
    const match = MENTION.exec(state.src.slice(state.pos));
    if (!match) return false;
    const env = state.env as unknown as MentionEnv | undefined;
    if (!env?.byName) return false;
    const html = renderMention(match[1] === '_', match[2], env);
    if (html === undefined) return false;
    if (!silent) state.push('html_inline', '', 0).content = html;
    state.pos += match[0].length;
    return true;
  });
  md.inline.ruler.before('emphasis', 'zulip_group_mention', (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */) return false;
    const match = GROUP_MENTION.exec(state.src.slice(state.pos));
    const env = state.env as unknown as MentionEnv | undefined;
    const group = match && env?.groupsByName?.get(match[2]);
    if (!match || !group) return false;
    const isSilent = match[1] === '_';
    if (!silent) {
      if (!isSilent) env!.mentionedGroupIds.add(group.id);
      state.push('html_inline', '', 0).content =
        `<span class="user-group-mention${isSilent ? ' silent' : ''}" data-user-group-id="${group.id}">${isSilent ? '' : '@'}${escapeHtml(group.name)}</span>`;
    }
    state.pos += match[0].length;
    return true;
  });
};

function renderMention(isSilent: boolean, text: string, env: MentionEnv): string | undefined {
  const name = text.trim();
  const silentClass = isSilent ? ' silent' : '';
  const at = isSilent ? '' : '@';
  if (CHANNEL_WILDCARDS.includes(name)) {
    if (!isSilent) env.channelWildcard = true;
    return `<span class="user-mention channel-wildcard-mention${silentClass}" data-user-id="*">${at}${name}</span>`;
  }
  if (name === TOPIC_WILDCARD) {
    if (!isSilent) env.topicWildcard = true;
    return `<span class="topic-mention${silentClass}">${at}${name}</span>`;
  }
  const [rawName, rawId] = name.split('|');
  let target: MentionTarget | undefined;
  if (rawId !== undefined) {
    target = /^\d{1,10}$/.test(rawId) ? env.byId.get(Number(rawId)) : undefined;
    if (target && rawName.trim() && target.fullName.toLowerCase() !== rawName.trim().toLowerCase()) target = undefined;
  } else {
    const candidates = env.byName.get(rawName.toLowerCase()) ?? [];
    target = candidates.length === 1 ? candidates[0] : undefined; // an ambiguous name mentions nobody
  }
  if (!target) return undefined;
  if (!isSilent) env.mentionedUserIds.add(target.id);
  return `<span class="user-mention${silentClass}" data-user-id="${target.id}">${at}${escapeHtml(target.fullName)}</span>`;
}

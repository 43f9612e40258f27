import { inGroupSetting, type ChatState } from '../events/chat-state';

/**
 * What is being typed just before the caret that the compose box can complete, as Zulip's
 * composebox_typeahead reads it: `@name` (people and groups), `#channel`, `#**channel>topic`
 * and `:emoji`. `start` is where the typed token begins (its `@`, `#` or `:`).
 */
export type Trigger =
  | { kind: 'mention'; query: string; start: number; silent: boolean }
  | { kind: 'channel'; query: string; start: number }
  | { kind: 'topic'; channel: string; query: string; start: number }
  | { kind: 'emoji'; query: string; start: number };

/** A token starts a text, a line or follows a space or an opening bracket. */
const BEFORE = '(?:^|[\\s(\\[{])';
const MENTION = new RegExp(`${BEFORE}(@(_?)(?:\\*\\*)?([^*@#:\\n]{0,40}))$`);
const TOPIC = new RegExp(`${BEFORE}(#\\*\\*([^*>\\n]+)>([^*\\n]{0,60}))$`);
const CHANNEL = new RegExp(`${BEFORE}(#(?:\\*\\*)?([^*>#@:\\n]{0,60}))$`);
const EMOJI = new RegExp(`${BEFORE}(:([a-z0-9_+-]{2,30}))$`, 'i');

export function findTrigger(text: string, caret: number): Trigger | null {
  const before = text.slice(0, caret);
  let match = TOPIC.exec(before);
  if (match) return { kind: 'topic', channel: match[2], query: match[3], start: caret - match[1].length };
  match = MENTION.exec(before);
  if (match) return { kind: 'mention', query: match[3], silent: match[2] === '_', start: caret - match[1].length };
  match = CHANNEL.exec(before);
  if (match) return { kind: 'channel', query: match[2], start: caret - match[1].length };
  match = EMOJI.exec(before);
  if (match) return { kind: 'emoji', query: match[2], start: caret - match[1].length };
  return null;
}

/** One choice in the list: what it shows and the syntax it puts in the text. */
export interface Suggestion {
  key: string;
  label: string;
  detail?: string;
  insert: string;
}

const MAX = 8;

/**
 * How well `name` matches `query` (lower is better, null when it does not): the whole name's
 * start, then a word's start, then anywhere; as Zulip's typeahead ranks.
 */
export function matchRank(name: string, query: string): number | null {
  const lower = name.toLowerCase();
  const q = query.trim().toLowerCase();
  if (q === '') return 1;
  if (lower.startsWith(q)) return 0;
  if (lower.split(/[\s_\-.]+/).some((word) => word.startsWith(q))) return 1;
  return lower.includes(q) ? 2 : null;
}

function best<T>(items: T[], nameOf: (item: T) => string, query: string): T[] {
  const ranked: { item: T; rank: number; name: string }[] = [];
  for (const item of items) {
    const rank = matchRank(nameOf(item), query);
    if (rank !== null) ranked.push({ item, rank, name: nameOf(item) });
  }
  ranked.sort((a, b) => a.rank - b.rank || a.name.localeCompare(b.name));
  return ranked.slice(0, MAX).map((entry) => entry.item);
}

/** Zulip's wildcard mentions, offered when typed. */
const WILDCARDS = ['all', 'everyone', 'channel', 'topic'];

export function mentionSuggestions(state: ChatState, query: string, silent: boolean): Suggestion[] {
  const at = silent ? '@_' : '@';
  const people = best(
    Object.values(state.users).filter((user) => user.is_active !== false && user.user_id !== state.me.user_id),
    (user) => user.full_name,
    query,
  ).map((user) => ({ key: `u${user.user_id}`, label: user.full_name, detail: user.email, insert: `${at}**${user.full_name}**` }));
  const groups = best(
    // A group the sender may not mention is offered for a silent mention only (as in Zulip).
    state.groups.filter((group) => !group.is_system_group && (silent || inGroupSetting(state, group.can_mention_group, state.me.user_id))),
    (group) => group.name,
    query,
  ).map((group) => ({ key: `g${group.id}`, label: group.name, detail: group.description, insert: `${at}*${group.name}*` }));
  const wildcards = query.trim() === '' ? [] : WILDCARDS.filter((name) => name.startsWith(query.trim().toLowerCase())).map((name) => ({ key: `w${name}`, label: name, insert: `${at}**${name}**` }));
  return [...people, ...groups, ...wildcards].slice(0, MAX);
}

export function channelSuggestions(state: ChatState, query: string): Suggestion[] {
  return best(state.subscriptions, (sub) => sub.name, query).map((sub) => ({ key: `c${sub.stream_id}`, label: sub.name, insert: `#**${sub.name}**` }));
}

export function topicSuggestions(channel: string, topics: string[], query: string): Suggestion[] {
  const found = best(topics, (topic) => topic, query).map((topic) => ({ key: `t${topic}`, label: topic, insert: `#**${channel}>${topic}**` }));
  // A topic not there yet may be linked too, as Zulip offers what was typed.
  if (query.trim() !== '' && !topics.some((topic) => topic.toLowerCase() === query.trim().toLowerCase())) {
    found.push({ key: 'tnew', label: query.trim(), insert: `#**${channel}>${query.trim()}**` });
  }
  return found.slice(0, MAX);
}

/** Parses "name code;name code;…" (virtual:emoji-names). */
export function parseEmojiNames(packed: string): { name: string; code: string }[] {
  return packed.split(';').map((pair) => {
    const space = pair.indexOf(' ');
    return { name: pair.slice(0, space), code: pair.slice(space + 1) };
  });
}

export function emojiSuggestions(emoji: { name: string; code: string }[], query: string): Suggestion[] {
  const q = query.toLowerCase();
  const starts: typeof emoji = [];
  const words: typeof emoji = [];
  for (const entry of emoji) {
    if (entry.name.startsWith(q)) starts.push(entry);
    else if (entry.name.includes(`_${q}`)) words.push(entry);
    if (starts.length >= MAX) break;
  }
  return [...starts, ...words].slice(0, MAX).map((entry) => ({
    key: `e${entry.name}`,
    label: `:${entry.name}:`,
    detail: String.fromCodePoint(...entry.code.split('-').map((part) => Number.parseInt(part, 16))),
    insert: `:${entry.name}:`,
  }));
}

/** The text with the token at `start`…`caret` replaced by the choice and a space, and where the caret goes. */
export function applySuggestion(text: string, start: number, caret: number, insert: string): { text: string; caret: number } {
  const after = text.slice(caret);
  const spaced = after.startsWith(' ') ? insert : `${insert} `;
  return { text: text.slice(0, start) + spaced + after, caret: start + spaced.length };
}

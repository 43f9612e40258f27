import type { Message } from '../api/types';

/**
 * What the message view shows, as Zulip's narrows: everything, a channel (and topic), or a direct
 * conversation. The same value names the URL (`#narrow/channel/12-general/topic/lunch`,
 * `#narrow/dm/7-Alice`), the message fetch and which live messages belong on screen.
 */
export type Narrow =
  | { kind: 'all' }
  | { kind: 'channel'; channelId: number; channelName: string; topic?: string }
  | { kind: 'dm'; userIds: number[]; label: string }
  | { kind: 'search'; terms: Term[] };

/** One of Zulip's search operators with its operand (`is:starred`, `sender:7`, `-topic:lunch`, or free text under `search`). */
export interface Term {
  operator: string;
  operand: string;
  negated?: boolean;
}

export const ALL: Narrow = { kind: 'all' };

/** Zulip's hash component encoding (hash_util.encodeHashComponent): `%` becomes `.`. */
export const encodeHashComponent = (text: string) => encodeURIComponent(text).replace(/\./g, '%2E').replace(/%/g, '.');

export function decodeHashComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\./g, '%'));
  } catch {
    return '';
  }
}

const slug = (id: number | string, name: string) => `${id}-${encodeHashComponent(name.replace(/ /g, '-'))}`;

export function narrowHash(narrow: Narrow): string {
  switch (narrow.kind) {
    case 'all':
      return '#feed';
    case 'channel':
      return `#narrow/channel/${slug(narrow.channelId, narrow.channelName)}${narrow.topic !== undefined ? `/topic/${encodeHashComponent(narrow.topic)}` : ''}`;
    case 'dm':
      return `#narrow/dm/${slug(narrow.userIds.join(','), narrow.label)}`;
    case 'search':
      return `#narrow/${narrow.terms.map((term) => `${term.negated ? '-' : ''}${term.operator}/${encodeHashComponent(term.operand)}`).join('/')}`;
  }
}

/** The narrow a URL fragment names; `names` gives a channel's or person's current name. */
export function parseHash(hash: string, names: { channel(id: number): string | undefined; person(id: number): string | undefined }): Narrow {
  let parts = hash.replace(/^#/, '').split('/');
  if (parts[0] !== 'narrow') return ALL;
  // `near/<id>` (a link to one message) places the view; it selects no messages.
  const nearAt = parts.findIndex((part, i) => i % 2 === 1 && part === 'near');
  if (nearAt > 0) parts = [...parts.slice(0, nearAt), ...parts.slice(nearAt + 2)];
  const simple = parts.every((part, i) => i % 2 === 0 || ['channel', 'stream', 'topic', 'dm', 'pm-with'].includes(part));
  const channelAt = simple ? parts.findIndex((part, i) => i % 2 === 1 && (part === 'channel' || part === 'stream')) : -1;
  if (channelAt > 0) {
    const channelId = Number.parseInt(parts[channelAt + 1] ?? '', 10);
    if (!Number.isSafeInteger(channelId)) return ALL;
    const topicAt = parts.findIndex((part, i) => i % 2 === 1 && part === 'topic');
    const topic = topicAt > 0 && parts[topicAt + 1] !== undefined ? decodeHashComponent(parts[topicAt + 1]) : undefined;
    return { kind: 'channel', channelId, channelName: names.channel(channelId) ?? `channel ${channelId}`, topic };
  }
  const dmAt = !simple ? -1 : parts.findIndex((part, i) => i % 2 === 1 && (part === 'dm' || part === 'pm-with'));
  if (dmAt > 0) {
    const ids = (parts[dmAt + 1] ?? '').split('-')[0].split(',').map((id) => Number.parseInt(id, 10));
    if (ids.length === 0 || ids.some((id) => !Number.isSafeInteger(id))) return ALL;
    return { kind: 'dm', userIds: ids, label: ids.map((id) => names.person(id) ?? `user ${id}`).join(', ') };
  }
  const terms: Term[] = [];
  for (let i = 1; i + 1 < parts.length; i += 2) {
    const negated = parts[i].startsWith('-');
    const operator = negated ? parts[i].slice(1) : parts[i];
    if (!/^[a-z-]+$/.test(operator)) return ALL;
    terms.push({ operator, operand: decodeHashComponent(parts[i + 1]), ...(negated ? { negated } : {}) });
  }
  return terms.length > 0 ? { kind: 'search', terms } : ALL;
}

/** The narrow as GET /messages takes it. */
export function apiNarrow(narrow: Narrow): { operator: string; operand: string | number | number[]; negated?: boolean }[] {
  switch (narrow.kind) {
    case 'all':
      return [];
    case 'channel':
      return [{ operator: 'channel', operand: narrow.channelId }, ...(narrow.topic !== undefined ? [{ operator: 'topic', operand: narrow.topic }] : [])];
    case 'dm':
      return [{ operator: 'dm', operand: narrow.userIds }];
    case 'search':
      return narrow.terms.map((term) => {
        // A channel in a URL is its slug, `12-general`: the API takes the id.
        const id = /^(\d+)(-|$)/.exec(term.operand);
        const operand = (term.operator === 'channel' || term.operator === 'stream') && id ? Number(id[1]) : term.operand;
        return { operator: term.operator, operand, ...(term.negated ? { negated: true } : {}) };
      });
  }
}

/** The narrow without its display names: what names it in the query cache (a rename changes no key). */
export function narrowIdentity(narrow: Narrow): Narrow {
  switch (narrow.kind) {
    case 'all':
      return ALL;
    case 'channel':
      return narrow.topic === undefined ? { kind: 'channel', channelId: narrow.channelId, channelName: '' } : { kind: 'channel', channelId: narrow.channelId, channelName: '', topic: narrow.topic };
    case 'dm':
      return { kind: 'dm', userIds: [...narrow.userIds].sort((a, b) => a - b), label: '' };
    case 'search':
      return narrow;
  }
}

/** The people of a direct message, the caller included. */
export function dmPeople(message: Message): number[] {
  return Array.isArray(message.display_recipient) ? message.display_recipient.map((person) => person.id) : [];
}

/** The other people of a direct conversation (none for one's own notes). */
export function otherPeople(message: Message, myId: number): number[] {
  return dmPeople(message).filter((id) => id !== myId);
}

/** Whether a message belongs in the narrow (a live one, to add it to what is on screen). */
export function inNarrow(narrow: Narrow, message: Message, myId: number): boolean {
  switch (narrow.kind) {
    case 'all':
      return true;
    case 'channel':
      return (
        message.type === 'stream' &&
        message.stream_id === narrow.channelId &&
        (narrow.topic === undefined || message.subject.toLowerCase() === narrow.topic.toLowerCase())
      );
    case 'dm': {
      if (message.type !== 'private') return false;
      const others = otherPeople(message, myId).sort((a, b) => a - b);
      const wanted = narrow.userIds.filter((id) => id !== myId).sort((a, b) => a - b);
      return others.length === wanted.length && others.every((id, i) => id === wanted[i]);
    }
    case 'search':
      return narrow.terms.every((term) => termMatches(term, message, myId));
  }
}

/**
 * Whether a live message meets a search term, for the operators the client can decide (as
 * Zulip's client-side filter does); full-text search and the rest are left to the server, so a
 * live message is not added under them.
 */
function termMatches(term: Term, message: Message, myId: number): boolean {
  const yes = (() => {
    switch (term.operator) {
      case 'channel':
      case 'stream':
        return message.type === 'stream' && String(message.stream_id) === /^\d+/.exec(term.operand)?.[0];
      case 'topic':
        return message.type === 'stream' && message.subject.toLowerCase() === term.operand.toLowerCase();
      case 'sender':
        return String(message.sender_id) === term.operand || message.sender_email.toLowerCase() === term.operand.toLowerCase() || (term.operand === 'me' && message.sender_id === myId);
      case 'is':
        if (term.operand === 'dm' || term.operand === 'private') return message.type === 'private';
        if (term.operand === 'starred') return (message.flags ?? []).includes('starred');
        if (term.operand === 'mentioned') return (message.flags ?? []).some((flag) => flag === 'mentioned' || flag === 'wildcard_mentioned');
        if (term.operand === 'unread') return !(message.flags ?? []).includes('read');
        return false;
      default:
        return false;
    }
  })();
  return term.negated ? !yes : yes;
}

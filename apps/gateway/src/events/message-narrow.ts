import type { Messaging } from '@teamchat/contracts';

/** The parts of a message event a narrow looks at. */
export interface NarrowedMessage {
  id: number;
  type: 'stream' | 'private';
  stream_id?: number;
  display_recipient: string | { id: number; email: string }[];
  subject: string;
  sender_id: number;
  sender_email: string;
  flags: string[];
}

type Operand = string | number | (string | number)[];

const MENTION_FLAGS = ['mentioned', 'wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'has_alert_word'];
const lower = (value: string | number) => String(value).toLowerCase();

/** Zulip's operand lists: a list of ids or emails, or one comma-separated string. */
const members = (operand: Operand): string[] =>
  (Array.isArray(operand) ? operand : typeof operand === 'number' ? [operand] : operand.split(',')).map((part) => lower(String(part).trim()));

function matchesTerm(message: NarrowedMessage, operator: string, operand: Operand, viewerId: number): boolean {
  const isChannel = message.type === 'stream';
  const participants = Array.isArray(message.display_recipient) ? message.display_recipient : [];
  const named = (person: { id: number; email: string }, wanted: string[]) => wanted.includes(String(person.id)) || wanted.includes(lower(person.email));
  switch (operator) {
    case 'stream':
    case 'channel':
      return isChannel && (String(message.stream_id) === String(operand) || lower(message.display_recipient as string) === lower(operand as string));
    case 'topic':
    case 'subject':
      return isChannel && lower(message.subject) === lower(operand as string);
    case 'sender':
      return String(message.sender_id) === String(operand) || lower(message.sender_email) === lower(operand as string);
    case 'id':
      return String(message.id) === String(operand);
    case 'is':
      switch (operand) {
        case 'dm':
        case 'private':
          return !isChannel;
        case 'mentioned':
        case 'alerted':
          return message.flags.some((flag) => MENTION_FLAGS.includes(flag));
        case 'starred':
          return message.flags.includes('starred');
        case 'unread':
          return !message.flags.includes('read');
        case 'resolved':
          return isChannel && message.subject.startsWith('✔ ');
        default:
          return false;
      }
    case 'dm':
    case 'pm-with': {
      if (isChannel) return false;
      const wanted = members(operand);
      const others = participants.filter((person) => person.id !== viewerId);
      // A self-DM names just the viewer; otherwise the narrow names everyone but the viewer.
      if (others.length === 0) return wanted.length === 1 && participants.some((person) => named(person, wanted));
      const withoutViewer = wanted.filter((value) => !participants.some((person) => person.id === viewerId && named(person, [value])));
      return withoutViewer.length === others.length && others.every((person) => named(person, withoutViewer));
    }
    case 'dm-including':
    case 'group-pm-with':
      return !isChannel && participants.some((person) => named(person, members(operand)));
    default:
      return false;
  }
}

/** Whether a message event belongs to a queue registered with this narrow (every term must hold). */
export function matchesNarrow(message: NarrowedMessage, narrow: Messaging.NarrowTerm[], viewerId: number): boolean {
  return narrow.every((term) => {
    const [operator, operand, negated] = Array.isArray(term) ? [term[0], term[1], false] : [term.operator, term.operand, term.negated ?? false];
    return matchesTerm(message, operator, operand, viewerId) !== negated;
  });
}

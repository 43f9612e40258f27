import { narrowTermParts, type Messaging } from '@teamchat/contracts';
import { RESOLVED_TOPIC_PREFIX, badRequest } from '@teamchat/zulip';

/** The parts of a message event a narrow looks at. */
export interface NarrowedMessage {
  type: 'stream' | 'private';
  stream_id?: number;
  display_recipient: unknown;
  subject: string;
  sender_id: number;
  sender_email: string;
  flags: string[];
}

/** What an event queue's narrow may use (Zulip's check_narrow_for_events). */
const EVENT_NARROW_OPERATORS = ['channel', 'stream', 'topic', 'sender', 'is'];

/** Refuses, at registration, a narrow an event queue cannot apply, with Zulip's texts. */
export function checkEventNarrow(narrow: Messaging.NarrowTerm[]): void {
  for (const term of narrow) {
    const { operator, operand } = narrowTermParts(term);
    if (!EVENT_NARROW_OPERATORS.includes(operator)) throw badRequest(`Operator ${operator} not supported.`);
    if (operator === 'is' && operand === 'followed') throw badRequest('Operand followed not supported.');
  }
}

const same = (a: unknown, b: unknown) => String(a).toLowerCase() === String(b).toLowerCase();

/** Zulip's narrow predicate for one term; `is` operands it does not know match everything, as there. */
function matchesTerm(message: NarrowedMessage, operator: string, operand: unknown): boolean {
  const isChannel = message.type === 'stream';
  switch (operator) {
    case 'channel':
    case 'stream':
      // By name as Zulip does; a channel id is accepted too.
      return isChannel && (same(message.display_recipient, operand) || message.stream_id === operand);
    case 'topic':
      return isChannel && same(message.subject, operand);
    case 'sender':
      return same(message.sender_email, operand) || message.sender_id === operand;
    case 'is':
      if (operand === 'dm' || operand === 'private') return !isChannel;
      if (operand === 'starred') return message.flags.includes('starred');
      if (operand === 'unread') return !message.flags.includes('read');
      if (operand === 'mentioned' || operand === 'alerted') return message.flags.includes('mentioned');
      if (operand === 'resolved') return isChannel && message.subject.startsWith(RESOLVED_TOPIC_PREFIX);
      return true;
    default:
      return false;
  }
}

/** Whether a message event belongs to a queue registered with this narrow (every term must hold). */
export function matchesNarrow(message: NarrowedMessage, narrow: Messaging.NarrowTerm[]): boolean {
  return narrow.every((term) => {
    const { operator, operand, negated } = narrowTermParts(term);
    return matchesTerm(message, operator, operand) !== negated;
  });
}

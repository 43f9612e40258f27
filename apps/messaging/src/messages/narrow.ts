import type { NarrowTerm } from '@teamchat/contracts';
import { badRequest } from '@teamchat/zulip';
import { isEmptyTopicAlias } from './message-text';

/** A narrow term in one form: Zulip accepts objects and legacy `[operator, operand]` pairs. */
export interface Term {
  operator: string;
  operand: string | number | (string | number)[];
  negated: boolean;
}

const OPERATOR_ALIASES: Record<string, string> = { stream: 'channel', 'pm-with': 'dm', subject: 'topic' };
const SUPPORTED = new Set(['channel', 'topic', 'dm', 'is', 'sender', 'id']);
const IS_OPERANDS = new Set(['unread', 'dm', 'private', 'mentioned', 'starred']);

export function normalizeNarrow(narrow: NarrowTerm[]): Term[] {
  return narrow.map((raw) => {
    const term: Term = Array.isArray(raw)
      ? { operator: raw[0], operand: raw[1], negated: false }
      : { operator: raw.operator, operand: raw.operand, negated: raw.negated ?? false };
    term.operator = OPERATOR_ALIASES[term.operator] ?? term.operator;
    if (!SUPPORTED.has(term.operator)) throw badRequest(`Invalid narrow operator: unknown operator ${term.operator}`);
    if (term.operator === 'is' && !IS_OPERANDS.has(String(term.operand))) {
      throw badRequest(`Invalid narrow operator: unknown 'is' operand ${String(term.operand)}`);
    }
    if (term.operator === 'topic') {
      if (typeof term.operand !== 'string') throw badRequest('Invalid narrow operand: topic must be a string');
      term.operand = isEmptyTopicAlias(term.operand.trim()) ? '' : term.operand.trim();
    }
    if (term.operator === 'channel' && Array.isArray(term.operand)) throw badRequest('Invalid narrow operand: channel');
    if (term.operator === 'dm' && term.negated) throw badRequest('Invalid narrow operator: negated dm');
    return term;
  });
}

/** The user ids or emails a `dm` operand names (a list, one id, or comma-separated emails). */
export function dmOperand(operand: Term['operand']): { ids: number[] } | { emails: string[] } {
  const items = Array.isArray(operand) ? operand : typeof operand === 'number' ? [operand] : operand.split(',');
  if (items.every((item) => typeof item === 'number')) return { ids: items as number[] };
  if (items.every((item) => typeof item === 'string')) return { emails: (items as string[]).map((e) => e.trim()).filter(Boolean) };
  throw badRequest('Invalid narrow operand: dm');
}

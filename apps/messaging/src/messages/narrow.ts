import { narrowTermParts, type NarrowTerm, type NarrowTermParts } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { badRequest } from '@teamchat/zulip';
import { isEmptyTopicAlias } from './message-text';

/** A narrow term in one form: Zulip accepts objects and legacy `[operator, operand]` pairs. */
export type Term = NarrowTermParts;

const OPERATOR_ALIASES: Record<string, string> = {
  stream: 'channel',
  'pm-with': 'dm',
  pm_with: 'dm',
  subject: 'topic',
};
const SUPPORTED = new Set(['channel', 'topic', 'dm', 'dm-including', 'is', 'sender', 'id', 'search', 'has', 'near', 'with']);
const IS_OPERANDS = new Set(['unread', 'dm', 'private', 'mentioned', 'starred', 'alerted', 'resolved', 'followed', 'muted']);
export const HAS_OPERANDS = new Set(['link', 'image', 'attachment', 'reaction']);

export function normalizeNarrow(narrow: NarrowTerm[]): Term[] {
  const terms = narrow.map((raw) => {
    const term: Term = narrowTermParts(raw);
    term.operator = OPERATOR_ALIASES[term.operator] ?? term.operator;
    if (!SUPPORTED.has(term.operator)) throw badRequest(`Invalid narrow operator: unknown operator ${term.operator}`);
    if (term.operator === 'is' && !IS_OPERANDS.has(String(term.operand))) {
      throw badRequest(`Invalid narrow operator: unknown 'is' operand ${String(term.operand)}`);
    }
    if (term.operator === 'has' && !HAS_OPERANDS.has(String(term.operand))) {
      throw badRequest(`Invalid narrow operator: unknown 'has' operand ${String(term.operand)}`);
    }
    if (term.operator === 'topic') {
      if (typeof term.operand !== 'string') throw badRequest('Invalid narrow operand: topic must be a string');
      term.operand = isEmptyTopicAlias(term.operand.trim()) ? '' : term.operand.trim();
    }
    if (term.operator === 'search') {
      if (typeof term.operand !== 'string') throw badRequest('Invalid narrow operand: search must be a string');
      if (term.operand.trim() === '') throw badRequest('Invalid narrow operand: search cannot be blank');
    }
    if (term.operator === 'with' && messageIdOperand(term.operand) === null) throw badRequest("Invalid narrow operator: Invalid 'with' operator");
    if ((term.operator === 'near' || term.operator === 'id') && messageIdOperand(term.operand) === null) {
      throw badRequest('Invalid narrow operator: Invalid message ID');
    }
    if (term.operator === 'dm-including' && Array.isArray(term.operand)) throw badRequest('Invalid narrow operand: dm-including');
    if (term.operator === 'channel' && Array.isArray(term.operand)) throw badRequest('Invalid narrow operand: channel');
    if (term.operator === 'dm' && term.negated) throw badRequest('Invalid narrow operator: negated dm');
    return term;
  });
  if (terms.filter((term) => term.operator === 'with').length > 1) {
    throw badRequest("Invalid narrow operator combination: Duplicate 'with' operators.");
  }
  return terms;
}

/** A message id given as a number or a string of digits; null for anything else. */
export function messageIdOperand(operand: Term['operand']): number | null {
  const id = typeof operand === 'number' ? operand : typeof operand === 'string' && /^\d{1,16}$/.test(operand) ? Number(operand) : NaN;
  return isStoredId(id) ? id : null;
}

/** The user ids or emails a `dm` operand names (a list, one id, or comma-separated emails). */
export function dmOperand(operand: Term['operand']): { ids: number[] } | { emails: string[] } {
  const items = Array.isArray(operand) ? operand : typeof operand === 'number' ? [operand] : operand.split(',');
  if (items.every((item) => typeof item === 'number')) return { ids: items as number[] };
  if (items.every((item) => typeof item === 'string')) return { emails: (items as string[]).map((e) => e.trim()).filter(Boolean) };
  throw badRequest('Invalid narrow operand: dm');
}

/**
 * Zulip's search text rules (zerver/lib/narrow.py): the text is matched as words with
 * stemming (plainto_tsquery), and each "quoted phrase" must also appear as written, whatever
 * its case, in the content or the topic.
 */
export function searchPhrases(text: string): string[] {
  return [...text.matchAll(/"[^"]+"|\S+/g)].map((match) => match[0]).filter((part) => part.length > 2 && part.startsWith('"') && part.endsWith('"')).map((part) => part.slice(1, -1));
}

/** A LIKE pattern that finds `text` anywhere, with LIKE's wildcards in it taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

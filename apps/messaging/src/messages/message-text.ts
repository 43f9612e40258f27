import { EMPTY_TOPIC_DISPLAY_NAME, LIMITS, badRequest } from '@teamchat/zulip';

const TRUNCATED_SUFFIX = '\n[message truncated]';

/**
 * Zulip's normalize_body: trailing whitespace and leading blank lines go; empty is refused;
 * too long is truncated with a note, not refused.
 */
export function normalizeContent(raw: string): string {
  if (raw.includes('\0')) throw badRequest('Message must not contain null bytes');
  const body = raw.trimEnd().replace(/^(?:[ \t]*\r?\n)+/, '');
  if (!body) throw badRequest('Message must not be empty');
  if ([...body].length <= LIMITS.maxMessageLength) return body;
  return [...body].slice(0, LIMITS.maxMessageLength - TRUNCATED_SUFFIX.length).join('') + TRUNCATED_SUFFIX;
}

/** Characters Zulip refuses in a topic: controls, surrogates, unassigned, private use. */
const INVALID_TOPIC_CHARACTER = /[\p{Cc}\p{Cs}\p{Cn}\p{Co}]/u;

/**
 * A channel message's topic: stripped; `(no topic)` and the empty-topic display name mean "";
 * longer than max_topic_length is truncated to fit with "..." as Zulip does.
 */
export function normalizeTopic(raw: string): string {
  if (raw.includes('\0')) throw badRequest('Topic must not contain null bytes');
  const topic = raw.trim();
  const chars = [...topic];
  const bad = chars.findIndex((ch) => INVALID_TOPIC_CHARACTER.test(ch));
  if (bad >= 0) throw badRequest(`Invalid character in topic, at position ${bad + 1}!`);
  if (isEmptyTopicAlias(topic)) return '';
  if (chars.length <= LIMITS.maxTopicLength) return topic;
  return `${chars.slice(0, LIMITS.maxTopicLength - 3).join('')}...`;
}

/** Names clients use for the empty topic. */
export const isEmptyTopicAlias = (topic: string): boolean => topic === '(no topic)' || topic === EMPTY_TOPIC_DISPLAY_NAME;

/** How the empty topic is shown to a client that did not ask for the empty name. */
export const displayTopic = (topic: string, allowEmpty: boolean): string =>
  topic === '' && !allowEmpty ? EMPTY_TOPIC_DISPLAY_NAME : topic;

import { badRequest } from '@teamchat/zulip';

/** A channel named by name or id, as `to` of a channel message gives it. */
export type ChannelTarget = { id: number } | { name: string };

/**
 * Zulip's extract_stream_id/extract_recipients for channel messages: JSON first (an int is an
 * id, a string a name, a one-element list is unwrapped), otherwise the text is the name.
 */
export function parseChannelTarget(to: string): ChannelTarget {
  let value: unknown;
  if (!mayBeJson(to)) return { name: checkNoNul(to.trim()) };
  try {
    value = JSON.parse(to);
  } catch {
    return { name: to.trim() };
  }
  if (Array.isArray(value)) {
    if (value.length !== 1) throw badRequest('Expected exactly one channel');
    value = value[0];
  }
  if (typeof value === 'number' && Number.isInteger(value)) return { id: value };
  if (typeof value === 'string') return { name: checkNoNul(value.trim()) };
  throw badRequest('Invalid data type for channel');
}

/**
 * False when the text cannot be JSON, judged by its first character: most channel names, whose
 * failed JSON.parse (an exception with its stack) cost more than the rest of parsing a send.
 */
function mayBeJson(text: string): boolean {
  return /^\s*(?:[[{"\-\d]|t|f|n|$)/.test(text);
}

/** Direct message recipients: all user ids or all emails. */
export type DirectTargets = { ids: number[] } | { emails: string[] };

export function parseDirectTargets(to: string): DirectTargets {
  let value: unknown;
  try {
    value = mayBeJson(to) ? JSON.parse(to) : to.split(',');
  } catch {
    value = to.split(',');
  }
  if (typeof value === 'number') value = [value];
  if (typeof value === 'string') value = value.split(',');
  if (!Array.isArray(value)) throw badRequest('Invalid data type for recipients');
  const items = value.map((item) => (typeof item === 'string' ? item.trim() : item)).filter((item) => item !== '');
  if (items.length === 0) throw badRequest('Message must have recipients');
  if (items.every((item) => typeof item === 'number' && Number.isInteger(item))) return { ids: [...new Set(items as number[])] };
  if (items.every((item) => typeof item === 'string')) return { emails: [...new Set(items as string[])] };
  if (items.every((item) => typeof item === 'string' || (typeof item === 'number' && Number.isInteger(item)))) {
    throw badRequest('Recipient lists may contain emails or user IDs, but not both.');
  }
  throw badRequest('Invalid data type for recipients');
}

/** No channel's name holds a NUL (and Postgres refuses one in text): Zulip's check_stream_name's words. */
function checkNoNul(name: string): string {
  const position = [...name].indexOf('\0');
  if (position >= 0) throw badRequest(`Invalid character in channel name, at position ${position + 1}.`);
  return name;
}

/** HTML-escapes a channel name for the error text, as Zulip does. */
export const escapeName = (name: string): string =>
  name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

import { badRequest } from '@teamchat/zulip';

/**
 * `to` of a scheduled message (Zulip's extract_stream_id / extract_direct_message_recipient_ids):
 * a channel by ID only (an integer, or a list of exactly one), direct recipients by user IDs
 * only. Answers `to` as messaging's send parses it.
 */
export function scheduledTarget(type: 'stream' | 'private', to: string): string {
  let value: unknown;
  try {
    value = JSON.parse(to);
  } catch {
    value = undefined;
  }
  if (type === 'stream') {
    if (Array.isArray(value) && value.length === 1) value = value[0];
    if (typeof value !== 'number' || !Number.isInteger(value)) throw badRequest('Invalid data type for channel ID');
    return JSON.stringify(value);
  }
  if (typeof value === 'number') value = [value];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'number' && Number.isInteger(item))) {
    throw badRequest('Invalid data type for recipients');
  }
  return JSON.stringify(value);
}

/** Zulip's API_RECIPIENT_TYPES as stored: `channel` is `stream`, `direct` is `private`. */
export const storedType = (type: 'direct' | 'channel' | 'stream' | 'private'): 'stream' | 'private' =>
  type === 'channel' || type === 'stream' ? 'stream' : 'private';

export const mustBeInFuture = (at: number): void => {
  if (at * 1000 <= Date.now()) throw badRequest('Scheduled delivery time must be in the future.');
};

import { badRequest, checkEmoji, emojiTypeOf, lookUpEmoji, type CustomEmojiLookup, type EmojiCatalogue } from '@teamchat/zulip';
import type { Presence } from '@teamchat/contracts';

export type { CustomEmojiLookup };

type ReactionType = Presence.ReactionType;

/** The status parameters as a client sent them (status_text already stripped). */
export interface StatusParams {
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

export interface StatusEmoji {
  name: string;
  code: string;
  type: ReactionType;
}

/** What a valid request changes: only what was passed. `emoji.name` "" clears the emoji. */
export interface StatusChange {
  away?: boolean;
  statusText?: string;
  emoji?: StatusEmoji;
}

/** A stored status, as far as what clients are shown goes. */
export interface StoredStatus {
  statusText: string;
  emojiName: string;
  emojiCode: string;
  /** One of REACTION_TYPES: only validated types are stored. */
  reactionType: string;
}

/**
 * Zulip's check_update_user_status: what a status request changes, every check made before
 * anything is stored. An emoji name alone is looked up (custom, then `zulip`, then Unicode);
 * a full name/code/type triple is checked as given.
 */
export async function checkStatusChange(params: StatusParams, catalogue: EmojiCatalogue, custom: CustomEmojiLookup): Promise<StatusChange> {
  const { away, status_text: statusText, emoji_name: name } = params;
  if (away === undefined && statusText === undefined && name === undefined) {
    throw badRequest('Client did not pass any new values.');
  }
  let code = params.emoji_code;
  let type = emojiTypeOf(params.reaction_type);

  if (name === '') {
    code = '';
    type = 'unicode_emoji';
  } else if (name !== undefined) {
    if (code === undefined || type === undefined) {
      const found = await lookUpEmoji(name, catalogue, custom);
      code ??= found.code;
      type ??= found.type;
    }
    await checkEmoji(name, code, type, catalogue, custom);
  } else if (type || code) {
    throw badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }

  return {
    ...(away !== undefined ? { away } : {}),
    ...(statusText !== undefined ? { statusText } : {}),
    ...(name !== undefined ? { emoji: { name, code: code!, type: type as ReactionType } } : {}),
  };
}

/**
 * A status as clients are shown it (Zulip's format_user_status): only what is set, and `away`
 * only when true. No stored status shows as `{}`, whatever presence_enabled says.
 */
export function toStatusRecord(stored: StoredStatus | null, presenceEnabled: boolean): Presence.UserStatusRecord {
  if (!stored) return {};
  return {
    ...(!presenceEnabled ? { away: true } : {}),
    ...(stored.statusText ? { status_text: stored.statusText } : {}),
    ...(stored.emojiName ? { emoji_name: stored.emojiName, emoji_code: stored.emojiCode, reaction_type: stored.reactionType as Presence.ReactionType } : {}),
  };
}

/** Whether a stored status shows anything (else the `user_status` state leaves the user out). */
export function isBlankStatus(stored: StoredStatus, presenceEnabled: boolean): boolean {
  return presenceEnabled && !stored.statusText && !stored.emojiName && !stored.emojiCode && stored.reactionType === 'unicode_emoji';
}

/** The `user_status` event of a change: the user and only the keys that were passed. */
export function statusEvent(userId: number, change: StatusChange): Record<string, unknown> & { type: string } {
  return {
    type: 'user_status',
    user_id: userId,
    ...(change.away !== undefined ? { away: change.away } : {}),
    ...(change.statusText !== undefined ? { status_text: change.statusText } : {}),
    ...(change.emoji ? { emoji_name: change.emoji.name, emoji_code: change.emoji.code, reaction_type: change.emoji.type } : {}),
  };
}

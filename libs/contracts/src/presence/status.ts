import { z } from 'zod';
import { LIMITS, param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';

/** A user's status as GET /users/{user_id}/status and the `user_status` state show it. */
export interface UserStatusRecord {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

/**
 * The reaction types a status emoji may have. The interface calls the bundled ones
 * `server_extra_emoji`; Zulip and its clients call them `zulip_extra_emoji`. Both are accepted
 * and the second is what is stored and shown.
 */
export const REACTION_TYPES = ['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

const statusTextLimit = LIMITS.maxStatusTextLength;

const statusFields = {
  // Stripped, then at most 60 characters (code points, as Zulip counts them).
  status_text: param
    .string(
      z
        .string()
        .trim()
        .refine((text) => Array.from(text).length <= statusTextLimit, {
          message: `status_text is too long (limit: ${statusTextLimit} characters)`,
        }),
    )
    .optional(),
  emoji_name: param.string().optional(),
  emoji_code: param.string().optional(),
  reaction_type: param.string().optional(),
};

export const updateOwnStatusParams = {
  ...statusFields,
  away: param.bool().optional(),
};

/** POST /users/me/status. */
export const updateOwnStatus = defineApiCommand<typeof updateOwnStatusParams, Record<string, never>>(
  'presence',
  'update_own_status',
  updateOwnStatusParams,
);

export const updateUserStatusParams = {
  user_id: param.int(),
  ...statusFields,
};

/** POST /users/{user_id}/status (administrators). */
export const updateUserStatus = defineApiCommand<typeof updateUserStatusParams, Record<string, never>>(
  'presence',
  'update_user_status',
  updateUserStatusParams,
);

export const getUserStatusParams = {
  user_id: param.int(),
};

/** GET /users/{user_id}/status. */
export const getUserStatus = defineApiCommand<typeof getUserStatusParams, { status: UserStatusRecord }>(
  'presence',
  'get_user_status',
  getUserStatusParams,
);

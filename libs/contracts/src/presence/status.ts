import { z } from 'zod';
import { LIMITS, param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { apiSchema, emptyResponse } from '../api/api-schemas';

/**
 * The reaction types a status emoji may have. The interface calls the bundled ones
 * `server_extra_emoji`; Zulip and its clients call them `zulip_extra_emoji`. Both are accepted
 * and the second is what is stored and shown.
 */
export const REACTION_TYPES = ['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

/** A user's status as GET /users/{user_id}/status and the `user_status` state show it. */
export const userStatusSchema = apiSchema(
  'UserStatus',
  z.object({
    status_text: z.string().optional(),
    emoji_name: z.string().optional(),
    emoji_code: z.string().optional(),
    reaction_type: z.enum(REACTION_TYPES).optional(),
    away: z.boolean().optional(),
  }),
);
export type UserStatusRecord = z.output<typeof userStatusSchema>;

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

export const updateOwnStatus = defineApiCommand('presence', 'update_own_status', {
  route: 'POST /users/me/status',
  summary: "Changes the caller's status: only the fields passed.",
  params: updateOwnStatusParams,
  response: emptyResponse,
});

export const updateUserStatusParams = {
  user_id: param.int(),
  ...statusFields,
};

export const updateUserStatus = defineApiCommand('presence', 'update_user_status', {
  route: 'POST /users/{user_id}/status',
  summary: "Changes another user's status (administrators).",
  params: updateUserStatusParams,
  response: emptyResponse,
});

export const getUserStatusParams = {
  user_id: param.int(),
};

export const getUserStatus = defineApiCommand('presence', 'get_user_status', {
  route: 'GET /users/{user_id}/status',
  summary: "A user's status.",
  params: getUserStatusParams,
  response: z.object({ status: userStatusSchema }),
});

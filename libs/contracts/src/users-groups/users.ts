import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { apiSchema, int } from '../api/api-schemas';

/** A member record as GET /users lists it (and `realm_users` in POST /register). */
export const userSchema = apiSchema(
  'User',
  z.object({
    user_id: int(),
    /** The address the API shows: the real one only where the user's email visibility allows. */
    email: z.string(),
    /** The real address, for those who may see it; null otherwise. */
    delivery_email: z.string().nullable(),
    full_name: z.string(),
    /** Null when the client shows Gravatars itself (client_gravatar). */
    avatar_url: z.string().nullable(),
    avatar_version: int(),
    date_joined: z.string(),
    is_active: z.boolean(),
    is_admin: z.boolean(),
    is_owner: z.boolean(),
    is_guest: z.boolean(),
    is_bot: z.boolean(),
    role: int(),
    bot_type: int().nullable(),
    bot_owner_id: int().nullable().optional(),
    /** Not shown to spectators. */
    timezone: z.string().optional(),
    /** With include_custom_profile_fields: field id → value. */
    profile_data: z.record(z.string(), z.object({ value: z.string(), rendered_value: z.string().optional() })).optional(),
  }),
);
export type UserRecord = z.output<typeof userSchema>;

/** Zulip's image for a user the viewer may not see (get_avatar_for_inaccessible_user), served by the gateway. */
export const UNKNOWN_USER_AVATAR_PATH = '/static/images/unknown-user-avatar.png';

export const listUsersParams = {
  client_gravatar: param.bool().default(true),
  include_custom_profile_fields: param.bool().default(false),
  user_ids: param.intList().optional(),
};

/** `user` is null for a spectator of an organization with public access. */
export const listUsers = defineApiCommand('users-groups', 'list_users', {
  route: 'GET /users',
  summary: "The organization's users.",
  auth: 'spectator',
  params: listUsersParams,
  response: z.object({ members: z.array(userSchema) }),
});

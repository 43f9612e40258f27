import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { apiSchema, emptyResponse, int } from '../api/api-schemas';
import { defineEvent } from '../event';
import { userSchema } from './users';

/**
 * One user, and what administrators change about users (zerver/views/users.py): GET, PATCH and
 * DELETE /users/{user_id}, GET and PATCH /users/{email}, POST /users/{user_id}/reactivate, and
 * GET /users/me.
 *
 * `/users/{user_id}` and `/users/{email}` have the same shape: the gateway tries the first and,
 * when the segment is not an integer, the second, as Zulip's URL patterns do (`<int:user_id>`
 * before `<email>`); `/users/me` is a route of its own and comes before both.
 */

const recordParams = {
  client_gravatar: param.bool().default(true),
  include_custom_profile_fields: param.bool().default(false),
};

/** GET /users/me: the caller's own record (Zulip's get_profile_backend). */
export const ownUserSchema = apiSchema(
  'OwnUser',
  userSchema.omit({ bot_type: true, bot_owner_id: true, avatar_url: true, delivery_email: true, profile_data: true }).extend({
    /** Never null here: the record is made without client_gravatar. */
    avatar_url: z.string(),
    delivery_email: z.string(),
    profile_data: userSchema.shape.profile_data.unwrap(),
    /** Deprecated: the newest message the caller has received, -1 when none. */
    max_message_id: int(),
  }),
);

export const getOwnUser = defineApiCommand('users-groups', 'get_own_user', {
  route: 'GET /users/me',
  summary: "The caller's own record, with its custom profile fields.",
  params: {},
  response: ownUserSchema,
});

export const getUserParams = { user_id: param.int(), ...recordParams };

export const getUser = defineApiCommand('users-groups', 'get_user', {
  route: 'GET /users/{user_id}',
  summary: 'One user of the organization, active or not.',
  params: getUserParams,
  response: z.object({ user: userSchema }),
});

/** `email` is the real address (when the caller may see it) or the dummy `user<id>@<host>`. */
export const getUserByEmailParams = { email: param.string(), ...recordParams };

export const getUserByEmail = defineApiCommand('users-groups', 'get_user_by_email', {
  route: 'GET /users/{email}',
  summary: 'One user of the organization, by real or dummy address.',
  params: getUserByEmailParams,
  response: z.object({ user: userSchema }),
});

/** One custom profile field's new value: "", [] or null clears it; lists are user ids. */
export const profileDataEntrySchema = z
  .object({ id: z.number().int(), value: z.union([z.string(), z.array(z.number().int()), z.null()]) })
  .strict();
export type ProfileDataEntry = z.infer<typeof profileDataEntrySchema>;

const updateParams = {
  full_name: param.string().optional(),
  role: param.int().optional(),
  profile_data: param.json(z.array(profileDataEntrySchema)).optional(),
  new_email: param.string().optional(),
};

export const updateUserParams = { user_id: param.int(), ...updateParams };

export const updateUser = defineApiCommand('users-groups', 'update_user', {
  route: 'PATCH /users/{user_id}',
  summary: "Administrators: changes a user's name, role, custom profile fields or (owners allowed to) address.",
  params: updateUserParams,
  response: emptyResponse,
});

export const updateUserByEmailParams = { email: param.string(), ...updateParams };

export const updateUserByEmail = defineApiCommand('users-groups', 'update_user_by_email', {
  route: 'PATCH /users/{email}',
  summary: 'As PATCH /users/{user_id}, the user named by real or dummy address.',
  params: updateUserByEmailParams,
  response: emptyResponse,
});

export const deactivateUserParams = {
  user_id: param.int(),
  /** Mail the user of their deactivation, with this comment (empty: without one); Zulip's check_capped_string(2000). */
  deactivation_notification_comment: param.string(z.string().max(2000)).optional(),
};

export const deactivateUser = defineApiCommand('users-groups', 'deactivate_user', {
  route: 'DELETE /users/{user_id}',
  summary: 'Administrators: deactivates a user (and the bots they own); their API key stops working.',
  params: deactivateUserParams,
  response: emptyResponse,
});

export const deactivateOwnUser = defineApiCommand('users-groups', 'deactivate_own_user', {
  route: 'DELETE /users/me',
  summary: "Deactivates the caller's own account (and the bots they own); never the organization's last owner or last user.",
  params: {},
  response: emptyResponse,
});

/** POST /users (zerver/views/users.py create_user_backend). */
export const createUserParams = {
  email: param.string(),
  password: param.string(),
  full_name: param.string(),
};

export const createUser = defineApiCommand('users-groups', 'create_user', {
  route: 'POST /users',
  summary: 'Administrators: creates an account with this address, password and name.',
  params: createUserParams,
  response: z.object({ user_id: int() }),
});

export const reactivateUserParams = { user_id: param.int() };

export const reactivateUser = defineApiCommand('users-groups', 'reactivate_user', {
  route: 'POST /users/{user_id}/reactivate',
  summary: 'Administrators: reactivates a deactivated user or bot.',
  params: reactivateUserParams,
  response: emptyResponse,
});

export const userAccessChangedSchema = z.object({
  realmId: z.number().int(),
  userId: z.number().int(),
  /** True when the user was deactivated: their event queues go too. */
  deactivated: z.boolean(),
});
export type UserAccessChanged = z.infer<typeof userAccessChangedSchema>;

export const UserAdministrationEvents = {
  /**
   * What a gateway has cached about the user's credentials (role, address, being active) is
   * stale: every replica stops trusting it at once; on deactivation the fan-out also deletes
   * the user's event queues. Not a client event.
   */
  userAccessChanged: defineEvent('users-groups', 'user_access_changed', userAccessChangedSchema),
};

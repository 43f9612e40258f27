import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';

/** A member record as GET /users lists it. */
export interface UserRecord {
  user_id: number;
  email: string;
  delivery_email: string | null;
  full_name: string;
  avatar_url: string | null;
  avatar_version: number;
  date_joined: string;
  is_active: boolean;
  is_admin: boolean;
  is_owner: boolean;
  is_guest: boolean;
  is_bot: boolean;
  role: number;
  bot_type: number | null;
  bot_owner_id?: number | null;
  is_system_bot?: boolean;
  timezone: string;
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
}

export const listUsersParams = {
  client_gravatar: param.bool().default(true),
  include_custom_profile_fields: param.bool().default(false),
  user_ids: param.intList().optional(),
};

/** GET /users. `user` is null for a spectator of an organization with public access. */
export const listUsers = defineApiCommand<typeof listUsersParams, { members: UserRecord[] }>(
  'users-groups',
  'list_users',
  listUsersParams,
);

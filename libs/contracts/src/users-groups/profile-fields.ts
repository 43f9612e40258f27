import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { emptyResponse, int } from '../api/api-schemas';
import { clientEventSchema, defineEvent } from '../event';
import { customProfileFieldSchema } from '../realtime/register-records';

// The organization's custom profile fields (Zulip's CustomProfileField), which users-groups
// owns; users' values are set with PATCH /users/{user_id} (administrators) and
// PATCH/DELETE /users/me/profile_data (the user).

/** Zulip's CustomProfileField limits. */
export const PROFILE_FIELD_NAME_MAX_LENGTH = 40;
export const PROFILE_FIELD_HINT_MAX_LENGTH = 80;
export const MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS = 2;

/**
 * A field's configuration as sent: a select's options (`{"key": {"text", "order"}}`), an
 * external account's `{"subtype", "url_pattern"?}`. Checked by the use case, with Zulip's texts.
 */
const fieldData = () => param.json(z.record(z.string(), z.unknown()));

export const listProfileFields = defineApiCommand('users-groups', 'list_profile_fields', {
  route: 'GET /realm/profile_fields',
  summary: "The organization's custom profile fields, in their order.",
  params: {},
  response: z.object({ custom_fields: z.array(customProfileFieldSchema) }),
});

export const createProfileFieldParams = {
  name: param.string().default(''),
  hint: param.string().default(''),
  field_type: param.int(),
  field_data: fieldData().optional(),
  display_in_profile_summary: param.bool().default(false),
  required: param.bool().default(false),
  editable_by_user: param.bool().default(true),
};

export const createProfileField = defineApiCommand('users-groups', 'create_profile_field', {
  route: 'POST /realm/profile_fields',
  summary: 'Adds a custom profile field, last in the order (administrators).',
  params: createProfileFieldParams,
  response: z.object({ id: int() }),
});

export const reorderProfileFieldsParams = {
  order: param.intList(),
};

export const reorderProfileFields = defineApiCommand('users-groups', 'reorder_profile_fields', {
  route: 'PATCH /realm/profile_fields',
  summary: "Sets the order of the organization's custom profile fields (administrators).",
  params: reorderProfileFieldsParams,
  response: emptyResponse,
});

export const updateProfileFieldParams = {
  field_id: param.int(),
  name: param.string().optional(),
  hint: param.string().optional(),
  field_data: fieldData().optional(),
  display_in_profile_summary: param.bool().optional(),
  required: param.bool().optional(),
  editable_by_user: param.bool().optional(),
};

export const updateProfileField = defineApiCommand('users-groups', 'update_profile_field', {
  route: 'PATCH /realm/profile_fields/{field_id}',
  summary: 'Changes a custom profile field (administrators). Zulip serves it without documenting it.',
  params: updateProfileFieldParams,
  response: emptyResponse,
});

export const deleteProfileFieldParams = {
  field_id: param.int(),
};

export const deleteProfileField = defineApiCommand('users-groups', 'delete_profile_field', {
  route: 'DELETE /realm/profile_fields/{field_id}',
  summary: "Removes a custom profile field and every user's value of it (administrators). Zulip serves it without documenting it.",
  params: deleteProfileFieldParams,
  response: emptyResponse,
});

/** One of the caller's new values: a string, or a Users field's user ids. */
const ownProfileEntrySchema = z.object({ id: z.number().int(), value: z.union([z.string(), z.array(z.number().int())]) }).strict();

export const updateOwnProfileDataParams = {
  data: param.json(z.array(ownProfileEntrySchema)),
};

export const updateOwnProfileData = defineApiCommand('users-groups', 'update_own_profile_data', {
  route: 'PATCH /users/me/profile_data',
  summary: "Sets the caller's values of custom profile fields they may edit. Zulip serves it without documenting it.",
  params: updateOwnProfileDataParams,
  response: emptyResponse,
});

export const removeOwnProfileDataParams = {
  data: param.intList(),
};

export const removeOwnProfileData = defineApiCommand('users-groups', 'remove_own_profile_data', {
  route: 'DELETE /users/me/profile_data',
  summary: "Clears the caller's values of custom profile fields they may edit. Zulip serves it without documenting it.",
  params: removeOwnProfileDataParams,
  response: emptyResponse,
});

export const ProfileFieldEvents = {
  /** `custom_profile_fields` events (every field of the organization), to every active user. */
  profileFieldsChanged: defineEvent('users-groups', 'custom_profile_fields_changed', clientEventSchema),
};

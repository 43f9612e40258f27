import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { authUserSchema, defineApiCommand, defineCommand, realmRefSchema } from '../command';
import { emptyResponse } from '../api/api-schemas';
import { clientEventSchema, defineEvent } from '../event';
import { realmEmojiSchema } from '../realtime/register-records';

/**
 * An organization's custom emoji (zerver/views/realm_emoji.py). users-groups owns the table
 * (`realm_emoji`) and the rules; the upload itself (POST /realm/emoji/{emoji_name}, a file) is
 * served by the uploads service, which stores the images and then asks users-groups to add the
 * emoji (`addCustomEmoji`).
 */

/** Every emoji by id, deactivated ones included (Zulip's get_all_custom_emoji_for_realm). */
export const customEmojiMapSchema = z.record(z.string(), realmEmojiSchema);

export const listCustomEmoji = defineApiCommand('users-groups', 'list_custom_emoji', {
  route: 'GET /realm/emoji',
  summary: "The organization's custom emoji by id, deactivated ones included.",
  params: {},
  response: z.object({ emoji: customEmojiMapSchema }),
});

export const deactivateCustomEmojiParams = { emoji_name: param.string() };

export const deactivateCustomEmoji = defineApiCommand('users-groups', 'deactivate_custom_emoji', {
  route: 'DELETE /realm/emoji/{emoji_name}',
  summary: 'Deactivates a custom emoji (its author or an administrator); old uses keep showing it.',
  params: deactivateCustomEmojiParams,
  response: emptyResponse,
});

/**
 * `users-groups.add_custom_emoji.v1`, from the uploads service's POST /realm/emoji/{emoji_name}.
 * Without `file` it only checks (name, the caller's permission, an active emoji of that name)
 * and answers the name as it will be stored and whether it overrides a built-in emoji; with it,
 * checks again and adds the emoji whose images are already stored, announcing it.
 */
export const addCustomEmojiPayload = z.object({
  realm: realmRefSchema,
  user: authUserSchema,
  /** As in the path: stripped and spaces made underscores here. */
  name: z.string(),
  file: z.object({ fileName: z.string().max(255), isAnimated: z.boolean() }).optional(),
  requestId: z.string(),
});
export type AddCustomEmojiPayload = z.infer<typeof addCustomEmojiPayload>;
export const addCustomEmoji = defineCommand<AddCustomEmojiPayload, { name: string; overridesBuiltIn: boolean }>(
  'users-groups',
  'add_custom_emoji',
  addCustomEmojiPayload,
);

/** The paths of an emoji's files below /user_avatars/ (Zulip's RealmEmoji.PATH_ID_TEMPLATE, STILL_PATH_ID_TEMPLATE). */
export const customEmojiPath = (realmId: number, fileName: string): string => `${realmId}/emoji/images/${fileName}`;
export const customEmojiStillPath = (realmId: number, fileName: string): string =>
  `${realmId}/emoji/images/still/${fileName.replace(/\.[^.]*$/, '')}.png`;

export const CustomEmojiEvents = {
  /** `realm_emoji` update events (the organization's whole emoji map), to every active user. */
  realmEmojiChanged: defineEvent('users-groups', 'realm_emoji_changed', clientEventSchema),
};

export type RealmEmojiRecord = z.infer<typeof realmEmojiSchema>;

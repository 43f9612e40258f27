import { z } from 'zod';
import { authUserSchema, defineApiCommand, defineCommand, realmRefSchema } from '../command';

/**
 * A user's avatar and API key (zerver/views/user_settings.py). The avatar's images are stored by
 * the uploads service, which serves POST and DELETE /users/me/avatar (declared with its
 * endpoints) and asks users-groups to switch the avatar's source (`changeAvatar`).
 */

/**
 * `users-groups.change_avatar.v1`: `U` (an uploaded avatar, whose images are stored) or `G`
 * (back to Gravatar or the default image). With `dryRun` it only checks that the caller may
 * change their avatar. Otherwise the version goes up and everyone hears the new URLs.
 */
export const changeAvatarPayload = z.object({
  realm: realmRefSchema,
  user: authUserSchema,
  source: z.enum(['U', 'G']),
  dryRun: z.boolean(),
  requestId: z.string(),
});
export type ChangeAvatarPayload = z.infer<typeof changeAvatarPayload>;
export const changeAvatar = defineCommand<ChangeAvatarPayload, { avatar_url: string }>('users-groups', 'change_avatar', changeAvatarPayload);

export const regenerateApiKey = defineApiCommand('users-groups', 'regenerate_api_key', {
  route: 'POST /users/me/api_key/regenerate',
  summary: "Replaces the caller's API key; the old one is refused at once.",
  params: {},
  response: z.object({ api_key: z.string() }),
});

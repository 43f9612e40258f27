import { z } from 'zod';
import { authUserSchema, defineCommand, realmRefSchema } from '../command';

/**
 * The organization's icon and wide logos (zerver/views/realm_icon.py, realm_logo.py). users-groups
 * owns the `realms` row (icon_source/icon_version, logo_*, night_logo_*); the uploads service
 * serves POST and DELETE /realm/icon and /realm/logo (declared with its endpoints), stores the
 * images, and asks users-groups to switch the source (`changeRealmImage`).
 */

/** Which image: the square icon, the wide logo, or the wide logo for the dark theme. */
export const REALM_IMAGES = ['icon', 'logo', 'night_logo'] as const;
export type RealmImage = (typeof REALM_IMAGES)[number];

/** Zulip's sources: `U` uploaded; `G` (the icon) and `D` (the logos) Zulip's default. */
export const REALM_IMAGE_DEFAULT_SOURCE: Record<RealmImage, 'G' | 'D'> = { icon: 'G', logo: 'D', night_logo: 'D' };

/**
 * `users-groups.change_realm_image.v1`: an administrator sets the image's source, `U` once its
 * files are stored, or the default (`G` for the icon, `D` for a logo). The version moves on and
 * every active user hears a `realm` update_dict event with the image's URL and source (Zulip's
 * do_change_icon_source, do_change_logo_source). Answers the URL and source as now stored.
 */
export const changeRealmImagePayload = z.object({
  realm: realmRefSchema,
  user: authUserSchema,
  image: z.enum(REALM_IMAGES),
  source: z.enum(['U', 'G', 'D']),
  requestId: z.string(),
});
export type ChangeRealmImagePayload = z.infer<typeof changeRealmImagePayload>;
export const changeRealmImage = defineCommand<ChangeRealmImagePayload, { url: string; source: string }>(
  'users-groups',
  'change_realm_image',
  changeRealmImagePayload,
);

/** Where an image's files are stored under /user_avatars (Zulip's realm_avatar_and_logo_path): `<realm>/realm/<name>.png` and `.original`. */
export const realmImagePath = (realmId: number, image: RealmImage) => `${realmId}/realm/${image}`;

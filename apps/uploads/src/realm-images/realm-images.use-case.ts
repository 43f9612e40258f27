import { Injectable } from '@nestjs/common';
import { Uploads, UsersGroups } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { LIMITS, badRequest, decodeParams, isAdminRole, mustBeAdmin } from '@teamchat/zulip';
import { lookup } from 'mime-types';
import type { Caller } from '../http/caller';
import { fileTooLargeFor, type ImageForm } from '../http/image-form';
import { acceptedImageType, invalidImageFormat, resizeAvatar, resizeLogo } from '../images/image-resizing';
import { PublicImages } from '../images/public-images';

type UserCaller = Caller & { user: NonNullable<Caller['user']> };
type RealmImage = UsersGroups.RealmImage;

/**
 * POST and DELETE /realm/icon and /realm/logo (zerver/views/realm_icon.py, realm_logo.py;
 * zerver/lib/upload): administrators only. Uploading: exactly one file ("icon" or "logo" in
 * Zulip's texts), within max_icon_file_size_mib / max_logo_file_size_mib, an accepted image that
 * decodes; stored as Zulip stores it (`<realm>/realm/<image>.original` and `.png`: the icon
 * 100x100 cropped to the centre, a logo scaled down to fit 800x100), then users-groups switches
 * the source to `U` with the version moved on and announces it. Deleting goes back to the
 * default image; as in Zulip the files stay (a cached URL may still name them, and the next
 * upload replaces them).
 */
@Injectable()
export class RealmImages {
  constructor(
    private readonly commands: CommandClient,
    private readonly images: PublicImages,
  ) {}

  /**
   * POST (with `form`) or DELETE of /realm/icon or /realm/logo, `params` as the request gave them
   * (the logo's `night`); answers the success body's data: the icon's URL, nothing for a logo,
   * and the parameters it ignored.
   */
  async execute(caller: UserCaller, which: 'icon' | 'logo', params: Record<string, string>, form?: ImageForm): Promise<Record<string, unknown>> {
    // Zulip's order: require_realm_admin, then the parameters, then the file.
    if (!isAdminRole(caller.user.role)) throw mustBeAdmin();
    const { values, ignored } = decodeParams(which === 'icon' ? {} : Uploads.realmLogoParams, params);
    const image: RealmImage = which === 'icon' ? 'icon' : (values as { night: boolean }).night ? 'night_logo' : 'logo';
    const { url } = form ? await this.upload(caller, image, form) : await this.change(caller, image, UsersGroups.REALM_IMAGE_DEFAULT_SOURCE[image]);
    return { ...(which === 'icon' ? { icon_url: url } : {}), ...(ignored.length > 0 ? { ignored_parameters_unsupported: ignored } : {}) };
  }

  private async upload(caller: UserCaller, image: RealmImage, form: ImageForm): Promise<{ url: string; source: string }> {
    const icon = image === 'icon';
    if (form.files !== 1 || !form.first) throw badRequest(icon ? 'You must upload exactly one icon.' : 'You must upload exactly one logo.');
    const { data, mimeType, filename } = form.first;
    if (!data) throw fileTooLargeFor(icon ? LIMITS.maxIconFileSizeMib : LIMITS.maxLogoFileSizeMib);
    // A part that names no type of its own (busboy's defaults) is judged by its file name.
    const type = acceptedImageType(mimeType) ?? acceptedImageType(lookup(filename) || undefined);
    if (!type) throw invalidImageFormat();
    const resized = icon ? await resizeAvatar(data) : await resizeLogo(data);
    const path = UsersGroups.realmImagePath(caller.realm.id, image);
    await this.images.put(`${path}.original`, data);
    await this.images.put(`${path}.png`, resized);
    return this.change(caller, image, 'U');
  }

  private change(caller: UserCaller, image: RealmImage, source: 'U' | 'G' | 'D'): Promise<{ url: string; source: string }> {
    return this.commands.call(UsersGroups.changeRealmImage, { realm: caller.realm, user: caller.user, requestId: caller.requestId, image, source });
  }
}

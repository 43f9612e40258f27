import { Injectable } from '@nestjs/common';
import { UsersGroups } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { LIMITS, MEDIUM_AVATAR_SIZE, badRequest, userAvatarPath } from '@teamchat/zulip';
import { lookup } from 'mime-types';
import type { Caller } from '../http/caller';
import { fileTooLargeFor, type ImageForm } from '../http/image-form';
import { acceptedImageType, invalidImageFormat, resizeAvatar } from '../images/image-resizing';
import { PublicImages } from '../images/public-images';

type UserCaller = Caller & { user: NonNullable<Caller['user']> };

/**
 * POST and DELETE /users/me/avatar (zerver/views/user_settings.py set_avatar_backend,
 * delete_avatar_backend). Setting: exactly one file, the caller may change their avatar
 * (users-groups), it fits MAX_AVATAR_FILE_SIZE_MIB and is an accepted image; stored as
 * Zulip stores it (`<realm>/<hash>.png`, 100 px; `-medium.png`, 500 px; `.original`), then
 * users-groups switches the source to `U` and announces the new URLs. Deleting: back to
 * Gravatar (or the default image), then the files go.
 */
@Injectable()
export class UserAvatar {
  constructor(
    private readonly commands: CommandClient,
    private readonly images: PublicImages,
  ) {}

  async set(caller: UserCaller, form: ImageForm): Promise<{ avatar_url: string }> {
    if (form.files !== 1 || !form.first) throw badRequest('You must upload exactly one avatar.');
    await this.change(caller, 'U', true);
    const { data, mimeType, filename } = form.first;
    if (!data) throw fileTooLargeFor(LIMITS.maxAvatarFileSizeMib);
    const type = acceptedImageType(mimeType) ?? acceptedImageType(lookup(filename) || undefined);
    if (!type) throw invalidImageFormat();
    const [small, medium] = await Promise.all([resizeAvatar(data), resizeAvatar(data, MEDIUM_AVATAR_SIZE)]);
    const path = userAvatarPath(caller.user.id, caller.realm.id);
    await this.images.put(`${path}.original`, data);
    await this.images.put(`${path}.png`, small);
    await this.images.put(`${path}-medium.png`, medium);
    return this.change(caller, 'U', false);
  }

  async remove(caller: UserCaller): Promise<{ avatar_url: string }> {
    const answer = await this.change(caller, 'G', false);
    const path = userAvatarPath(caller.user.id, caller.realm.id);
    await this.images.remove([`${path}.original`, `${path}.png`, `${path}-medium.png`]);
    return answer;
  }

  private change(caller: UserCaller, source: 'U' | 'G', dryRun: boolean): Promise<{ avatar_url: string }> {
    return this.commands.call(UsersGroups.changeAvatar, { realm: caller.realm, user: caller.user, requestId: caller.requestId, source, dryRun });
  }
}

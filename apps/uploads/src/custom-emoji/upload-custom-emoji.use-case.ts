import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { UsersGroups } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { LIMITS, badRequest, isAdminRole } from '@teamchat/zulip';
import { lookup } from 'mime-types';
import type { Caller } from '../http/caller';
import { fileTooLargeFor, type ImageForm } from '../http/image-form';
import { IMAGE_TYPES, acceptedImageType, invalidImageFormat, resizeEmoji } from '../images/image-resizing';
import { PublicImages } from '../images/public-images';

type UserCaller = Caller & { user: NonNullable<Caller['user']> };

/**
 * POST /realm/emoji/{emoji_name} (zerver/views/realm_emoji.py upload_emoji, check_add_realm_emoji):
 * users-groups first checks the caller and the name; then the form must hold exactly one file,
 * only administrators override a built-in emoji, the file fits MAX_EMOJI_FILE_SIZE_MIB and is
 * an accepted image. Its images (the original, the 64x64 one, a still PNG of an animated one)
 * are stored under a random name, then users-groups adds the emoji; if that fails, the images go.
 */
@Injectable()
export class UploadCustomEmoji {
  constructor(
    private readonly commands: CommandClient,
    private readonly images: PublicImages,
  ) {}

  async execute(caller: UserCaller, rawName: string, form: ImageForm): Promise<void> {
    const envelope = { realm: caller.realm, user: caller.user, requestId: caller.requestId };
    const { name, overridesBuiltIn } = await this.commands.call(UsersGroups.addCustomEmoji, { ...envelope, name: rawName });
    if (form.files !== 1 || !form.first) throw badRequest('You must upload exactly one file.');
    if (overridesBuiltIn && !isAdminRole(caller.user.role)) throw badRequest('Only administrators can override built-in emoji.');
    const { data, mimeType, filename } = form.first;
    if (!data) throw fileTooLargeFor(LIMITS.maxEmojiFileSizeMib);
    // A part that names no type of its own (busboy's defaults) is judged by its file name.
    const type = acceptedImageType(mimeType) ?? acceptedImageType(lookup(filename) || undefined);
    if (!type) throw invalidImageFormat();

    const { image, still } = await resizeEmoji(data, type);
    // Not guessable from the emoji's id (Zulip salts a hash of it): 8 random hex digits.
    const fileName = `${randomBytes(4).toString('hex')}${IMAGE_TYPES[type].extension}`;
    const path = UsersGroups.customEmojiPath(caller.realm.id, fileName);
    const files: [string, Buffer][] = [
      [`${path}.original`, data],
      [path, image],
      ...(still ? [[UsersGroups.customEmojiStillPath(caller.realm.id, fileName), still] as [string, Buffer]] : []),
    ];
    try {
      for (const [at, bytes] of files) await this.images.put(at, bytes);
      await this.commands.call(UsersGroups.addCustomEmoji, { ...envelope, name, file: { fileName, isAnimated: still !== null } });
    } catch (error) {
      await this.images.remove(files.map(([at]) => at));
      throw error;
    }
  }
}

import { Controller, Injectable } from '@nestjs/common';
import { Uploads, type PayloadOf } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { CommandHandler, Payload } from '@teamchat/platform';
import { badRequest } from '@teamchat/zulip';
import { AttachmentsRepository } from '../data/attachments.repository';
import { FileStorage } from '../storage/file-storage';

/** GET /attachments: the caller's files with the messages that link them, and the organization's space used. */
@Injectable()
export class ListAttachments {
  constructor(private readonly attachments: AttachmentsRepository) {}

  async execute({ realm, user }: PayloadOf<typeof Uploads.listAttachments>) {
    const [rows, used] = await Promise.all([this.attachments.ownedBy(user.id), this.attachments.spaceUsed(realm.id)]);
    return {
      attachments: rows.map((row) => ({
        id: row.id,
        name: row.fileName,
        path_id: row.pathId,
        size: row.size,
        create_time: row.createTime.getTime(),
        messages: row.messages.map((m) => ({ id: m.id, date_sent: Number(m.date_sent) })),
      })),
      upload_space_used: used,
    };
  }
}

/** DELETE /attachments/{attachment_id}: the caller's own only ("Invalid attachment" otherwise, as Zulip). */
@Injectable()
export class RemoveAttachment {
  constructor(
    private readonly attachments: AttachmentsRepository,
    private readonly storage: FileStorage,
  ) {}

  async execute({ user, params }: PayloadOf<typeof Uploads.removeAttachment>) {
    const removedPath = isStoredId(params.attachment_id!) ? await this.attachments.deleteOwn(params.attachment_id!, user.id) : null;
    if (removedPath === null) throw badRequest('Invalid attachment');
    await this.storage.delete(removedPath);
    return {};
  }
}

@Controller()
export class AttachmentsHandler {
  constructor(
    private readonly listUseCase: ListAttachments,
    private readonly removeUseCase: RemoveAttachment,
  ) {}

  @CommandHandler(Uploads.listAttachments)
  list(@Payload() payload: PayloadOf<typeof Uploads.listAttachments>) {
    return this.listUseCase.execute(payload);
  }

  @CommandHandler(Uploads.removeAttachment)
  remove(@Payload() payload: PayloadOf<typeof Uploads.removeAttachment>) {
    return this.removeUseCase.execute(payload);
  }
}

import { Module } from '@nestjs/common';
import { DbModule } from '@teamchat/db';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { AttachmentAccess } from './attachments/attachment-access';
import { AttachmentLinksConsumer } from './attachments/attachment-links.consumer';
import { AttachmentsHandler, ListAttachments, RemoveAttachment } from './attachments/attachments.handler';
import { StoreAttachment } from './attachments/store-attachment.use-case';
import { AttachmentsRepository } from './data/attachments.repository';
import { TusUploadsRepository } from './data/tus-uploads.repository';
import { ServeFileRoute } from './http/serve-file.route';
import { TusUploads } from './http/tus-uploads';
import { UploadFileRoute } from './http/upload-file.route';
import { UploadsHttpServer } from './http/uploads-http.server';
import { UserAvatar } from './avatars/user-avatar.use-case';
import { UploadCustomEmoji } from './custom-emoji/upload-custom-emoji.use-case';
import { PublicImages } from './images/public-images';
import { RealmImages } from './realm-images/realm-images.use-case';
import { FileStorage } from './storage/file-storage';
import { LocalFileStorage } from './storage/local-file-storage';
import { OrganizationDataReadonlyRepository } from './data/organization-data.readonly.repository';
import { RealmExportsRepository } from './data/realm-exports.repository';
import { DeleteRealmExport } from './realm-export/delete-realm-export.use-case';
import { ListRealmExportConsents } from './realm-export/list-realm-export-consents.use-case';
import { ListRealmExports } from './realm-export/list-realm-exports.use-case';
import { RealmExportHandler } from './realm-export/realm-export.handler';
import { RealmExportNotices } from './realm-export/realm-export-notices';
import { RealmExportQueue } from './realm-export/realm-export.queue';
import { RealmExportWorker } from './realm-export/realm-export.worker';
import { RequestRealmExport } from './realm-export/request-realm-export.use-case';
import { ServeRealmExport } from './realm-export/serve-realm-export.use-case';
import { WriteRealmExport } from './realm-export/write-realm-export.use-case';

/**
 * Chooses the storage backend from UPLOADS_BACKEND. The S3 client is loaded only for that
 * backend: AWS's SDK is a tenth of a second of every start that does not use it.
 */
export function storageFor(config: AppConfig): FileStorage {
  if (config.UPLOADS_BACKEND === 's3') {
    if (!config.S3_AUTH_UPLOADS_BUCKET) throw new Error('UPLOADS_BACKEND=s3 needs S3_AUTH_UPLOADS_BUCKET');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { S3FileStorage } = require('./storage/s3-file-storage') as typeof import('./storage/s3-file-storage');
    return new S3FileStorage({
      bucket: config.S3_AUTH_UPLOADS_BUCKET,
      endpoint: config.S3_ENDPOINT_URL,
      region: config.S3_REGION,
      accessKeyId: config.S3_KEY,
      secretAccessKey: config.S3_SECRET_KEY,
    });
  }
  return new LocalFileStorage(config.LOCAL_UPLOADS_DIR);
}

/**
 * The uploads service: attachments (`attachments`, `attachment_messages`), their storage, the
 * file routes on its own HTTP listener, resumable uploads, and the links messaging reports; the
 * images of custom emoji and avatars (stored and served here, their rows users-groups').
 */
@Module({
  imports: [DbModule],
  controllers: [AttachmentsHandler, RealmExportHandler],
  providers: [
    { provide: FileStorage, useFactory: storageFor, inject: [APP_CONFIG] },
    AttachmentsRepository,
    TusUploadsRepository,
    AttachmentAccess,
    StoreAttachment,
    ListAttachments,
    RemoveAttachment,
    AttachmentLinksConsumer,
    UploadFileRoute,
    ServeFileRoute,
    TusUploads,
    PublicImages,
    UploadCustomEmoji,
    UserAvatar,
    RealmImages,
    UploadsHttpServer,
    RealmExportsRepository,
    OrganizationDataReadonlyRepository,
    RealmExportNotices,
    RealmExportQueue,
    RequestRealmExport,
    ListRealmExports,
    DeleteRealmExport,
    ListRealmExportConsents,
    WriteRealmExport,
    RealmExportWorker,
    ServeRealmExport,
  ],
})
export class UploadsModule {}

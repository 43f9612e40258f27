import 'reflect-metadata';
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { openDatabase, type DatabaseConnections } from '@teamchat/db';
import type { AppConfig } from '@teamchat/platform';
import { configureAvatars } from '@teamchat/zulip';
import { OrganizationImportRepository } from '../data/organization-import.repository';
import { ImportError, ImportRealm } from '../realm-export/import-realm.use-case';
import type { FileStorage } from '../storage/file-storage';
import { storageFor } from '../uploads.module';

export { ImportError } from '../realm-export/import-realm.use-case';

/**
 * The uploads service's use cases for the admin command line (tools/admin), built outside Nest
 * on the service's own repositories and file storage: importing an organization export.
 */
export class UploadsAdmin {
  private readonly storage: FileStorage;

  private constructor(
    private readonly db: DatabaseConnections,
    config: AppConfig,
  ) {
    this.storage = storageFor(config);
    // Uploaded avatars' storage keys are salted hashes of user ids (AVATAR_SALT).
    configureAvatars({ enableGravatar: config.ENABLE_GRAVATAR, salt: config.AVATAR_SALT });
  }

  static open(config: AppConfig): UploadsAdmin {
    return new UploadsAdmin(openDatabase(config.DATABASE_URL), config);
  }

  /** Loads the export archive at `file` as a new organization (at `subdomain`, or the one it was exported from). */
  async importRealm(file: string, subdomain: string | undefined) {
    await access(file).catch(() => {
      throw new ImportError(`No such file: ${file}`);
    });
    return new ImportRealm(new OrganizationImportRepository(this.db.prisma), this.storage).execute(createReadStream(file), { subdomain });
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { UserCommand } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { LOGGER } from '@teamchat/platform';
import { badRequest, isAdminRole, mustBeAdmin } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { ExportStatus, RealmExportsRepository } from '../data/realm-exports.repository';
import { FileStorage } from '../storage/file-storage';
import { RealmExportNotices } from './realm-export-notices';

/**
 * DELETE /export/realm/{export_id} (delete_realm_export): a finished export of the organization
 * loses its archive and is marked deleted; Zulip's texts for one that is unknown, already
 * deleted, failed or still being written. The administrators hear of it.
 */
@Injectable()
export class DeleteRealmExport {
  constructor(
    private readonly exports: RealmExportsRepository,
    private readonly storage: FileStorage,
    private readonly notices: RealmExportNotices,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<{ export_id: number }>): Promise<Record<string, never>> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const row = isStoredId(params.export_id) ? await this.exports.byId(params.export_id) : null;
    if (!row || row.realmId !== realm.id) throw badRequest('Invalid data export ID');
    if (row.status === ExportStatus.DELETED) throw badRequest('Export already deleted');
    if (row.status === ExportStatus.FAILED) throw badRequest('Export failed, nothing to delete');
    if (row.status !== ExportStatus.SUCCEEDED) throw badRequest('Export still in progress');
    const path = await this.notices.change(
      realm.id,
      realm.url,
      async (tx) => {
        const stored = await this.exports.markDeleted(row.id, realm.id, tx);
        if (stored === null) throw badRequest('Export already deleted'); // another request deleted it meanwhile
        return stored;
      },
      requestId,
    );
    await this.storage.delete(path).catch((err: unknown) => this.logger.warn({ err, path }, 'export archive not removed'));
    return {};
  }
}

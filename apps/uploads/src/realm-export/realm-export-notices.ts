import { Injectable } from '@nestjs/common';
import { Uploads } from '@teamchat/contracts';
import { EventOutbox, type Queryable } from '@teamchat/db';
import { OrganizationDataReadonlyRepository } from '../data/organization-data.readonly.repository';
import { ExportStatus, RealmExportsRepository, type RealmExportRow } from '../data/realm-exports.repository';

const seconds = (date: Date | null) => (date === null ? null : Math.floor(date.getTime() / 1000));

/** An export as the API lists it (Zulip's get_realm_exports_serialized); its URL is on the organization's host. */
export function exportRecord(row: RealmExportRow, realmUrl: string): Uploads.RealmExportRecord {
  return {
    id: row.id,
    acting_user_id: row.actingUserId ?? 0,
    export_time: seconds(row.dateRequested)!,
    deleted_timestamp: seconds(row.dateDeleted),
    failed_timestamp: seconds(row.dateFailed),
    export_url: row.status === ExportStatus.SUCCEEDED && row.exportPath ? `${realmUrl}/user_uploads/${row.exportPath}` : null,
    pending: row.status === ExportStatus.REQUESTED || row.status === ExportStatus.STARTED,
    export_type: row.exportType,
  };
}

/**
 * The organization's exports, listed, and told to its active human administrators as a
 * `realm_export` event whenever one is requested, finishes, fails or is deleted (Zulip's
 * notify_realm_export): the event is written with the change (outbox) and published once it commits.
 */
@Injectable()
export class RealmExportNotices {
  constructor(
    private readonly exports: RealmExportsRepository,
    private readonly organization: OrganizationDataReadonlyRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async list(realmId: number, realmUrl: string): Promise<Uploads.RealmExportRecord[]> {
    return (await this.exports.ofRealm(realmId)).map((row) => exportRecord(row, realmUrl));
  }

  /** `work` in a transaction that also reads the organization's exports after it and writes the event. */
  change<T>(realmId: number, realmUrl: string, work: (tx: Queryable) => Promise<T>, requestId?: string): Promise<T> {
    return this.outbox.run(async (tx) => {
      const value = await work(tx);
      const exports = (await this.exports.ofRealm(realmId, tx)).map((row) => exportRecord(row, realmUrl));
      const admins = await this.organization.humanAdminIds(realmId, tx);
      return { value, events: [{ def: Uploads.RealmExportEvents.realmExportsChanged, payload: { realmId, users: admins, event: { type: 'realm_export', exports } } }] };
    }, requestId);
  }
}

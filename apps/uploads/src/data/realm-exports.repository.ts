import { Injectable } from '@nestjs/common';
import { PgService, statement, type Queryable } from '@teamchat/db';

/** Zulip's RealmExport statuses. */
export const ExportStatus = { REQUESTED: 1, STARTED: 2, SUCCEEDED: 3, FAILED: 4, DELETED: 5 } as const;

/** A data export of an organization (`realm_exports`). */
export interface RealmExportRow {
  id: number;
  realmId: number;
  actingUserId: number | null;
  exportType: number;
  status: number;
  dateRequested: Date;
  dateFailed: Date | null;
  dateDeleted: Date | null;
  exportPath: string | null;
}

const COLUMNS = `id, realm_id AS "realmId", acting_user_id AS "actingUserId", export_type AS "exportType", status,
  date_requested AS "dateRequested", date_failed AS "dateFailed", date_deleted AS "dateDeleted", export_path AS "exportPath"`;

/** Serialises the requests of one organization, so the weekly limit is never passed by two at once. */
const lockRealmExports = statement<{ locked: string }, [realmId: number]>(
  'uploads.lock_realm_exports',
  `SELECT pg_advisory_xact_lock(hashtext('realm_exports'), $1)::text AS locked`,
);

const countRecentExports = statement<{ count: number }, [realmId: number, days: number]>(
  'uploads.count_recent_realm_exports',
  `SELECT count(*)::int AS count FROM realm_exports WHERE realm_id = $1 AND date_requested >= now() - make_interval(days => $2)`,
);

const insertExport = statement<{ id: number }, [realmId: number, actingUserId: number, exportType: number]>(
  'uploads.insert_realm_export',
  `INSERT INTO realm_exports (realm_id, acting_user_id, export_type) VALUES ($1, $2, $3) RETURNING id`,
);

/** Exports asked for through the API (the command line's have no acting user, and Zulip lists none of those). */
const exportsOfRealm = statement<RealmExportRow, [realmId: number]>(
  'uploads.realm_exports_of_realm',
  `SELECT ${COLUMNS} FROM realm_exports WHERE realm_id = $1 AND acting_user_id IS NOT NULL ORDER BY id`,
);

const exportById = statement<RealmExportRow, [id: number]>('uploads.realm_export_by_id', `SELECT ${COLUMNS} FROM realm_exports WHERE id = $1`);

const finishedExportByPath = statement<{ id: number; realmId: number; size: number }, [exportPath: string]>(
  'uploads.finished_realm_export_by_path',
  `SELECT id, realm_id AS "realmId", tarball_size_bytes::float8 AS size FROM realm_exports WHERE export_path = $1 AND status = 3`,
);

const startExport = statement<{ id: number }, [id: number]>(
  'uploads.start_realm_export',
  `UPDATE realm_exports SET status = 2, date_started = now() WHERE id = $1 AND status IN (1, 2) RETURNING id`,
);

const succeedExport = statement<{ id: number }, [id: number, exportPath: string, size: number, sha256: string, stats: string]>(
  'uploads.succeed_realm_export',
  `UPDATE realm_exports SET status = 3, date_succeeded = now(), export_path = $2, tarball_size_bytes = $3, sha256sum_hex = $4, stats = $5::jsonb
    WHERE id = $1 AND status = 2 RETURNING id`,
);

const failExport = statement<{ id: number }, [id: number]>(
  'uploads.fail_realm_export',
  `UPDATE realm_exports SET status = 4, date_failed = now() WHERE id = $1 AND status IN (1, 2) RETURNING id`,
);

const deleteExport = statement<{ exportPath: string }, [id: number, realmId: number]>(
  'uploads.delete_realm_export',
  `UPDATE realm_exports SET status = 5, date_deleted = now() WHERE id = $1 AND realm_id = $2 AND status = 3 RETURNING export_path AS "exportPath"`,
);

/** The uploads service's repository of `realm_exports`, which it owns. */
@Injectable()
export class RealmExportsRepository {
  constructor(private readonly pg: PgService) {}

  /**
   * Records a requested export unless the organization already asked for `limit` in the last
   * `days` days (then null); one organization's requests are taken one at a time (locked to the
   * end of `tx`, the caller's transaction).
   */
  async request(realmId: number, actingUserId: number, exportType: number, limit: { count: number; days: number }, tx: Queryable): Promise<number | null> {
    await tx.run(lockRealmExports, realmId);
    const [{ count }] = await tx.run(countRecentExports, realmId, limit.days);
    if (count >= limit.count) return null;
    const [{ id }] = await tx.run(insertExport, realmId, actingUserId, exportType);
    return id;
  }

  /** How many exports the organization asked for in the last `days` days. */
  async recentCount(realmId: number, days: number): Promise<number> {
    const [{ count }] = await this.pg.run(countRecentExports, realmId, days);
    return count;
  }

  ofRealm(realmId: number, tx: Queryable = this.pg): Promise<RealmExportRow[]> {
    return tx.run(exportsOfRealm, realmId);
  }

  async byId(id: number): Promise<RealmExportRow | null> {
    const [row] = await this.pg.run(exportById, id);
    return row ?? null;
  }

  /** The finished export whose archive is stored under `exportPath`, if any. */
  async finishedByPath(exportPath: string): Promise<{ id: number; realmId: number; size: number } | null> {
    const [row] = await this.pg.run(finishedExportByPath, exportPath);
    return row ?? null;
  }

  /** Marks it started; false when it is no longer to be written (finished, failed or deleted meanwhile). */
  async start(id: number): Promise<boolean> {
    return (await this.pg.run(startExport, id)).length > 0;
  }

  async succeed(id: number, archive: { path: string; size: number; sha256: string; stats: object }, tx: Queryable = this.pg): Promise<boolean> {
    return (await tx.run(succeedExport, id, archive.path, archive.size, archive.sha256, JSON.stringify(archive.stats))).length > 0;
  }

  async fail(id: number, tx: Queryable = this.pg): Promise<boolean> {
    return (await tx.run(failExport, id)).length > 0;
  }

  /** Marks a finished export deleted; answers its archive's storage key, null when it was not a finished export of the organization. */
  async markDeleted(id: number, realmId: number, tx: Queryable = this.pg): Promise<string | null> {
    const [row] = await tx.run(deleteExport, id, realmId);
    return row?.exportPath ?? null;
  }
}

import { Injectable } from '@nestjs/common';
import { PgService, statement } from '@teamchat/db';

/** A resumable upload (`tus_uploads`): its length, how much is stored, and where (no parts once finished). */
export interface TusUploadRow {
  id: string;
  size: number;
  offset: number;
  metadata: Record<string, string | null>;
  parts: string[];
  createdAt: Date;
}

const TUS_COLUMNS = `id, size::float8 AS size, "offset"::float8 AS "offset", metadata, parts, created_at AS "createdAt"`;

const insertTusUpload = statement<{ id: string }, [id: string, size: number, metadata: string]>(
  'uploads.insert_tus_upload',
  `INSERT INTO tus_uploads (id, size, metadata) VALUES ($1, $2, $3::jsonb) RETURNING id`,
);

const tusUploadById = statement<TusUploadRow, [id: string]>('uploads.tus_upload_by_id', `SELECT ${TUS_COLUMNS} FROM tus_uploads WHERE id = $1`);

/** Appends a stored part, only if the upload is still at `offset` (no other write got there first). */
const appendTusPart = statement<{ offset: number }, [id: string, offset: number, written: number, part: string]>(
  'uploads.append_tus_part',
  `UPDATE tus_uploads SET "offset" = "offset" + $3, parts = array_append(parts, $4)
    WHERE id = $1 AND "offset" = $2 RETURNING "offset"::float8 AS "offset"`,
);

const deleteTusUpload = statement<{ parts: string[] }, [id: string]>(
  'uploads.delete_tus_upload',
  `DELETE FROM tus_uploads WHERE id = $1 RETURNING parts`,
);

/** A finished upload keeps its row (its length and offset, for HEAD) without its parts, which it answers. */
const finishTusUpload = statement<{ parts: string[] }, [id: string]>(
  'uploads.finish_tus_upload',
  `UPDATE tus_uploads AS t SET parts = '{}' FROM (SELECT id, parts FROM tus_uploads WHERE id = $1 FOR UPDATE) AS before
    WHERE t.id = before.id RETURNING before.parts`,
);

/** Uploads begun before a time (unfinished, or finished and kept for HEAD): removed with their parts. */
const deleteTusUploadsBefore = statement<{ id: string; parts: string[] }, [before: Date]>(
  'uploads.delete_tus_uploads_before',
  `DELETE FROM tus_uploads WHERE created_at < $1 RETURNING id, parts`,
);

/**
 * The `tus_uploads` table: the state of each resumable upload in progress (its length, offset,
 * the storage parts written so far and the tus metadata), so any replica serves any request of
 * an upload. Sizes are BIGINT in the table and come back as numbers (`::float8`).
 */
@Injectable()
export class TusUploadsRepository {
  constructor(private readonly pg: PgService) {}

  async create(id: string, size: number, metadata: Record<string, string | null>): Promise<void> {
    await this.pg.run(insertTusUpload, id, size, JSON.stringify(metadata));
  }

  async byId(id: string): Promise<TusUploadRow | null> {
    const [row] = await this.pg.run(tusUploadById, id);
    return row ?? null;
  }

  /**
   * Appends a stored part of `written` bytes, only if the upload is still at `offset` (no other
   * write got there first); answers the new offset, null when the upload is gone or moved on.
   */
  async appendPart(id: string, offset: number, written: number, part: string): Promise<number | null> {
    const [moved] = await this.pg.run(appendTusPart, id, offset, written, part);
    return moved ? moved.offset : null;
  }

  /** Deletes an upload's row; answers its parts, null when there was none. */
  async delete(id: string): Promise<string[] | null> {
    const [removed] = await this.pg.run(deleteTusUpload, id);
    return removed ? removed.parts : null;
  }

  /** Empties a finished upload's parts (its file is an attachment by now); answers them, null when there is no such upload. */
  async finish(id: string): Promise<string[] | null> {
    const [finished] = await this.pg.run(finishTusUpload, id);
    return finished ? finished.parts : null;
  }

  /** Deletes the uploads begun before `before`; answers them with their parts. */
  deleteBegunBefore(before: Date): Promise<{ id: string; parts: string[] }[]> {
    return this.pg.run(deleteTusUploadsBefore, before);
  }
}

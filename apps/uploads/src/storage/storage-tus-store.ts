import { PassThrough, Transform, type Readable } from 'node:stream';
import { DataStore, ERRORS, Upload } from '@tus/server';
import type { TusUploadRow, TusUploadsRepository } from '../data/tus-uploads.repository';
import type { FileStorage } from './file-storage';

/** Upload ids are generated (32 hex digits); anything else names no upload and no storage key. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

/**
 * The tus data store over the service's own FileStorage, whichever backend it is: each PATCH
 * body is one part object (`tus/<id>/<offset>`), and the upload's state (length, offset, parts,
 * metadata) is a row in Postgres, reached through `TusUploadsRepository`. Any replica serves any
 * request of an upload, on the local disk or on S3, with nothing but plain object writes (no
 * multipart API, which not every S3-compatible server has); a PATCH advances the offset only if
 * no other write did meanwhile, so two replicas racing on one upload cannot both append.
 */
export class StorageTusStore extends DataStore {
  constructor(
    private readonly storage: FileStorage,
    private readonly uploads: TusUploadsRepository,
  ) {
    super();
    // Deferred lengths are refused at creation (411, as Zulip's tusd hook), after the server has let them through.
    this.extensions = ['creation', 'creation-with-upload', 'creation-defer-length', 'termination', 'expiration'];
  }

  /** Whether `id` could be an upload of this store (the server refuses others as unknown). */
  static isUploadId(id: string): boolean {
    return UPLOAD_ID.test(id);
  }

  override async create(upload: Upload): Promise<Upload> {
    if (!StorageTusStore.isUploadId(upload.id) || upload.size === undefined) throw ERRORS.FILE_WRITE_ERROR;
    await this.uploads.create(upload.id, upload.size, upload.metadata ?? {});
    upload.creation_date = new Date().toISOString();
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const row = await this.row(id);
    return new Upload({ id, size: row.size, offset: row.offset, metadata: row.metadata, creation_date: row.createdAt.toISOString() });
  }

  override async write(body: Readable, id: string, offset: number): Promise<number> {
    const row = await this.row(id);
    if (row.offset !== offset) throw ERRORS.INVALID_OFFSET;
    const part = `tus/${id}/${offset}`;
    let written = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        written += chunk.length;
        done(null, chunk);
      },
    });
    body.on('error', (error) => counter.destroy(error));
    await this.storage.write(part, body.pipe(counter), 'application/octet-stream');
    if (written === 0) {
      await this.storage.delete(part);
      return offset;
    }
    const moved = await this.uploads.appendPart(id, offset, written, part);
    if (moved === null) {
      await this.storage.delete(part);
      throw ERRORS.INVALID_OFFSET;
    }
    return moved;
  }

  override async remove(id: string): Promise<void> {
    if (!StorageTusStore.isUploadId(id)) throw ERRORS.FILE_NOT_FOUND;
    const parts = await this.uploads.delete(id);
    if (parts === null) throw ERRORS.FILE_NOT_FOUND;
    await this.deleteParts(parts);
  }

  /**
   * A finished upload (its file is an attachment now) lets its parts go but keeps its state, so
   * HEAD answers its full offset for as long as unfinished ones are kept, as Zulip's tusd does.
   */
  async finished(id: string): Promise<void> {
    if (!StorageTusStore.isUploadId(id)) throw ERRORS.FILE_NOT_FOUND;
    const parts = await this.uploads.finish(id);
    if (parts === null) throw ERRORS.FILE_NOT_FOUND;
    await this.deleteParts(parts);
  }

  /** The upload's bytes so far: its parts one after another, read one at a time. */
  async read(id: string): Promise<Readable> {
    const { parts } = await this.row(id);
    const out = new PassThrough();
    void (async () => {
      for (const part of parts) {
        const source = await this.storage.read(part);
        for await (const chunk of source) if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
      }
      out.end();
    })().catch((error: unknown) => out.destroy(error as Error));
    return out;
  }

  /** Removes uploads begun more than `getExpiration()` ago (unfinished, or finished and kept for HEAD); answers how many. */
  override async deleteExpired(): Promise<number> {
    const before = new Date(Date.now() - this.getExpiration());
    const expired = await this.uploads.deleteBegunBefore(before);
    for (const upload of expired) await this.deleteParts(upload.parts);
    return expired.length;
  }

  override getExpiration(): number {
    return 24 * 3600 * 1000;
  }

  private async row(id: string): Promise<TusUploadRow> {
    if (!StorageTusStore.isUploadId(id)) throw ERRORS.FILE_NOT_FOUND;
    const row = await this.uploads.byId(id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    return row;
  }

  private async deleteParts(parts: string[]): Promise<void> {
    for (const part of parts) await this.storage.delete(part).catch(() => undefined);
  }
}

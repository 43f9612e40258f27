import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStorage, type ByteRange } from './file-storage';

/** Files under one directory (LOCAL_UPLOADS_DIR), at `<dir>/<key>`. */
export class LocalFileStorage extends FileStorage {
  readonly kind = 'local';
  private readonly root: string;

  constructor(directory: string) {
    super();
    this.root = path.resolve(directory);
  }

  /** The file's path; a key that would leave the directory is refused (keys are generated, but be sure). */
  private pathOf(key: string): string {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) throw new Error(`storage key outside the uploads directory: ${key}`);
    return file;
  }

  async write(key: string, body: Readable): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    try {
      await pipeline(body, createWriteStream(file, { flags: 'wx' }));
    } catch (error) {
      await this.delete(key).catch(() => undefined); // the partial file, and its directory once empty
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    await stat(file); // fail here (ENOENT), not mid-response
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    await rm(file, { force: true });
    // The key's own directory (<realm>/<xx>/<random>, tus/<id>) goes once it is empty (rmdir
    // refuses a directory that still holds anything).
    await rmdir(path.dirname(file)).catch(() => undefined);
  }

  async exists(key: string): Promise<boolean> {
    return stat(this.pathOf(key)).then(
      () => true,
      () => false,
    );
  }
}

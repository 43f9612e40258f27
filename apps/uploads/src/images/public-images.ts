import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { FileStorage } from '../storage/file-storage';

/** The storage keys of what /user_avatars/ serves (avatars, custom emoji) are these paths under this prefix. */
const PREFIX = 'avatars/';

const TYPES: Record<string, string> = { png: 'image/png', gif: 'image/gif', jpg: 'image/jpeg', webp: 'image/webp', avif: 'image/avif' };

/**
 * The images served without credentials under /user_avatars/<path> (Zulip's LOCAL_AVATARS_DIR or
 * avatar bucket): users' avatars, custom emoji and the organization's icon and logos, in the
 * same FileStorage as uploads (local disk or S3), keyed `avatars/<path>`, apart from attachments' keys. `.original` files (the bytes
 * as uploaded) are kept but not served.
 */
@Injectable()
export class PublicImages {
  constructor(private readonly storage: FileStorage) {}

  /** Stores (or replaces) the image at `path`. */
  async put(path: string, data: Buffer): Promise<void> {
    const key = PREFIX + path;
    // Writes never overwrite (local files are created exclusively): a replaced avatar goes first.
    await this.storage.delete(key).catch(() => undefined);
    await this.storage.write(key, Readable.from([data]), typeOf(path));
  }

  async remove(paths: string[]): Promise<void> {
    await Promise.all(paths.map((path) => this.storage.delete(PREFIX + path).catch(() => undefined)));
  }

  /** The image's type and bytes, when `path` names one that is stored and served (undefined otherwise). */
  async read(path: string): Promise<{ type: string; body: Readable } | undefined> {
    if (!SERVED.test(path)) return undefined;
    const key = PREFIX + path;
    if (!(await this.storage.exists(key))) return undefined;
    return { type: typeOf(path), body: await this.storage.read(key) };
  }
}

/**
 * `<realm>/<hash>.png`, `<realm>/<hash>-medium.png`, `<realm>/emoji/images/<file>`,
 * `<realm>/emoji/images/still/<name>.png`, and the organization's `<realm>/realm/{icon,logo,night_logo}.png`.
 */
const SERVED = /^\d+\/(?:[0-9a-f]{40}(?:-medium)?\.png|emoji\/images\/(?:still\/)?[A-Za-z0-9_-]+\.(?:png|gif|jpg|webp|avif)|realm\/(?:icon|logo|night_logo)\.png)$/;

const typeOf = (path: string): string => TYPES[path.slice(path.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

import type { Readable } from 'node:stream';

/** The byte range of a read, both ends included (HTTP's `Range: bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where uploaded files' bytes live, by key (the attachment's path id). Writes take a stream and
 * never hold a file whole in memory; a write that fails or is aborted leaves nothing behind.
 * Two backends: the local disk and S3-compatible object storage.
 */
export abstract class FileStorage {
  abstract readonly kind: 'local' | 's3';
  /** Stores `body` under `key`; resolves once it is durable. Rejects (and removes any partial data) if `body` errors. */
  abstract write(key: string, body: Readable, contentType: string): Promise<void>;
  /** The stored bytes (the range only, when given). */
  abstract read(key: string, range?: ByteRange): Promise<Readable>;
  abstract delete(key: string): Promise<void>;
  /** Whether anything is stored under `key` (tests and clean-up checks). */
  abstract exists(key: string): Promise<boolean>;
}

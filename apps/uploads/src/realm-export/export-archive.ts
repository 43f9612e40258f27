import { createHash } from 'node:crypto';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import * as tar from 'tar-stream';

/**
 * The archive of an organization export: one tar.gz, every entry under one top directory.
 * `realm.json` comes first (the manifest: the export's kind, every table but the messages, and
 * the list of files below), then `messages-000001.json`… (messages with their flags and
 * reactions, MESSAGE_BATCH at a time), then the files: `uploads/<path id>` (attachments) and
 * `avatars/<path>` (custom emoji, uploaded avatars). The importer reads it in that order, in one
 * pass (tools/admin `import-realm`).
 */
export const ARCHIVE_FORMAT = 'teamchat-realm-export';
export const ARCHIVE_VERSION = 1;
export const MANIFEST = 'realm.json';
export const MESSAGE_BATCH = 1000;
export const messageFileName = (n: number) => `messages-${String(n).padStart(6, '0')}.json`;

/** A file of the export: where it is in the archive, and what it is (so the importer knows its new key). */
export type ArchivedFile =
  | { archive: string; kind: 'attachment'; path_id: string; size: number }
  | { archive: string; kind: 'emoji'; emoji_id: number; file: string }
  | { archive: string; kind: 'avatar'; user_id: number; suffix: string };

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  export_type: number;
  exported_at: number;
  /** The organization's id where it was exported (storage keys and URLs in messages name it). */
  realm_id: number;
  tables: Record<string, Record<string, unknown>[]>;
  message_files: string[];
  files: ArchivedFile[];
}

/** Counts and hashes what passes through (the stored archive's size and SHA-256). */
class Measure extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    done(null, chunk);
  }
}

/**
 * Writes an archive as a stream: `body` is handed to the storage while entries are added; `done`
 * resolves with its size and digest once everything is written (and rejects if anything failed).
 */
export function archiveWriter(top: string) {
  const pack = tar.pack();
  const measure = new Measure();
  const body = new PassThrough();
  const piped = pipeline(Readable.from(pack), createGzip(), measure, body);
  const mtime = new Date();
  const add = (name: string, data: Buffer) =>
    new Promise<void>((resolve, reject) => pack.entry({ name: `${top}/${name}`, size: data.length, mtime }, data, (error) => (error ? reject(error) : resolve())));
  const addStream = (name: string, size: number, source: Readable) =>
    new Promise<void>((resolve, reject) => {
      const entry = pack.entry({ name: `${top}/${name}`, size, mtime }, (error) => (error ? reject(error) : resolve()));
      source.on('error', reject);
      source.pipe(entry);
    });
  return {
    body,
    addJson: (name: string, value: unknown) => add(name, Buffer.from(JSON.stringify(value))),
    add,
    addStream,
    /** Ends the archive; resolves when it has all gone to `body`. */
    async finish(): Promise<{ size: number; sha256: string }> {
      pack.finalize();
      await piped;
      return { size: measure.size, sha256: measure.hash.digest('hex') };
    },
    abort(error: Error): void {
      pack.destroy(error);
      body.destroy(error);
    },
  };
}

/** The entries of an archive (a tar.gz stream), names without the top directory, in order. */
export async function* archiveEntries(source: Readable): AsyncGenerator<{ name: string; body: Readable }> {
  const extract = tar.extract();
  const unpacked = pipeline(source, createGunzip(), extract);
  unpacked.catch(() => undefined); // surfaced by the iteration below
  for await (const entry of extract) {
    if (entry.header.type !== 'file' && entry.header.type !== 'contiguous-file') {
      entry.resume();
      continue;
    }
    const name = entry.header.name.split('/').slice(1).join('/');
    yield { name, body: entry };
  }
  await unpacked;
}

export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

// The part of tar-stream (3.x, no types of its own) the organization export and import use.
declare module 'tar-stream' {
  import type { Readable, Writable } from 'node:stream';

  export interface Headers {
    name: string;
    size?: number;
    mode?: number;
    mtime?: Date;
    type?: 'file' | 'directory' | 'link' | 'symlink' | 'block-device' | 'character-device' | 'fifo' | 'contiguous-file' | null;
  }

  export interface Pack extends Readable {
    entry(headers: Headers, buffer: Buffer | string, callback?: (error?: Error | null) => void): Writable;
    entry(headers: Headers, callback?: (error?: Error | null) => void): Writable;
    finalize(): void;
  }

  export interface Entry extends Readable {
    header: Headers;
  }

  export interface Extract extends Writable, AsyncIterable<Entry> {}

  export function pack(): Pack;
  export function extract(): Extract;
}

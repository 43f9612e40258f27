import type { IncomingMessage } from 'node:http';
import { badRequest } from '@teamchat/zulip';
import { readForm } from './upload-file.route';

/** What an image upload's form held: how many files, and the first one's bytes unless it passed the limit. */
export interface ImageForm {
  files: number;
  /** The first file; `data` is absent when it was larger than the limit (the rest was read and dropped). */
  first?: { filename: string; mimeType: string; data?: Buffer };
}

/**
 * Reads a multipart form whose file is an image to resize (an emoji, an avatar): small, so held
 * in memory, but never more than `limitBytes` of it: past that the rest of the part is read and
 * dropped and the file marked too large. Further files are counted and drained. A body that is
 * no multipart form has no file.
 */
export async function readImageForm(req: IncomingMessage, limitBytes: number): Promise<ImageForm> {
  if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data') || req.headers['content-length'] === '0') {
    req.resume();
    return { files: 0 };
  }
  const form: ImageForm = { files: 0 };
  let collecting: Promise<void> | undefined;
  await readForm(req, (stream, info) => {
    if (!info.filename) return void stream.resume();
    form.files++;
    if (form.files > 1) return void stream.resume();
    const first: NonNullable<ImageForm['first']> = { filename: info.filename, mimeType: info.mimeType };
    form.first = first;
    const chunks: Buffer[] = [];
    let bytes = 0;
    collecting = new Promise<void>((resolve) => {
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes <= limitBytes) chunks.push(chunk);
        else chunks.length = 0;
      });
      stream.on('end', () => {
        if (bytes <= limitBytes) first.data = Buffer.concat(chunks);
        resolve();
      });
      stream.on('error', () => resolve());
    });
  });
  await collecting;
  return form;
}

/** Zulip's text for a file past a MiB limit. */
export const fileTooLargeFor = (limitMib: number) => badRequest(`Uploaded file is larger than the allowed limit of ${limitMib} MiB`);

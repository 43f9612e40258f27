import type { IncomingMessage } from 'node:http';
import { badRequest } from '@teamchat/zulip';
import { readForm } from './upload-file.route';

/** What an image upload's form held: how many files, and the first one's bytes unless it passed the limit. */
export interface ImageForm {
  files: number;
  /** The form's other (text) fields, by name: the last of a name, as Django's QueryDict gives it. */
  fields?: Record<string, string>;
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
  const fields = new Map<string, string>();
  let collecting: Promise<void> | undefined;
  await readForm(
    req,
    (stream, info) => {
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
    },
    (name, value) => void fields.set(name, value),
  );
  await collecting;
  // fromEntries defines own properties: a field named "__proto__" is a field, not a prototype.
  form.fields = Object.fromEntries(fields);
  return form;
}

/** Zulip's text for a file past a MiB limit. */
export const fileTooLargeFor = (limitMib: number) => badRequest(`Uploaded file is larger than the allowed limit of ${limitMib} MiB`);

/** Zulip's limit on a form's size without files (Django's DATA_UPLOAD_MAX_MEMORY_SIZE, 2.5 MB). */
const MAX_FORM_BYTES = 2_621_440;

/**
 * The parameters of a request without a file (DELETE /realm/logo): the query string's, then a
 * url-encoded body's over them (Zulip reads the body's first). Any other body is read and dropped;
 * a url-encoded one past Django's limit is a 400, as Django's RequestDataTooBig is.
 */
export async function readRequestParams(req: IncomingMessage, query: URLSearchParams): Promise<Record<string, string>> {
  const params = new Map<string, string>(query);
  const urlencoded = (req.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
  const chunks: Buffer[] = [];
  let bytes = 0;
  await new Promise<void>((resolve) => {
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (urlencoded && bytes <= MAX_FORM_BYTES) chunks.push(chunk);
    });
    req.on('end', resolve);
    req.on('error', () => resolve());
    req.on('close', resolve);
  });
  if (bytes > MAX_FORM_BYTES && urlencoded) throw badRequest('Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.');
  if (urlencoded) for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) params.set(name, value);
  return Object.fromEntries(params);
}

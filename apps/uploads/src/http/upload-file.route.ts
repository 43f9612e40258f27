import type { IncomingMessage } from 'node:http';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { Injectable } from '@nestjs/common';
import busboy from 'busboy';
import { badRequest } from '@teamchat/zulip';
import { FileStorage } from '../storage/file-storage';
import { MAX_FILE_BYTES, StoreAttachment, fileTooLarge } from '../attachments/store-attachment.use-case';
import type { Caller } from './caller';
import { ClientGone, guarded, multipartFault } from './request-errors';

/** Counts the bytes passing through and fails past `limit`, so storage never gets more. */
class ByteCounter extends Transform {
  bytes = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) return callback(fileTooLarge());
    callback(null, chunk);
  }
}

type StoredFile = { pathId: string; filename: string; contentType: string; size: number };

/**
 * POST /user_uploads (Zulip's upload_file_backend): multipart form data with exactly one file,
 * streamed part by part to storage, never held whole in memory. The first file part is stored
 * as it arrives; any further one is drained and refuses the upload, as is a file past the size
 * limit (its partial data is removed); either way the request is read to its end before the
 * answer, so the client sees the error rather than a reset connection. A body the parser
 * refuses (see readForm) is a 400 and a client gone mid-body answers nothing; either way the
 * part being stored is dropped.
 */
@Injectable()
export class UploadFileRoute {
  constructor(
    private readonly store: StoreAttachment,
    private readonly storage: FileStorage,
  ) {}

  async serve(req: IncomingMessage, caller: Caller & { user: NonNullable<Caller['user']> }): Promise<object> {
    // No multipart body, or an empty one (Django's parser reads a zero Content-Length as an empty form).
    if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data') || req.headers['content-length'] === '0') {
      throw badRequest('You must specify a file to upload');
    }
    await this.store.checkQuota(caller.realm.id, 0);
    let files = 0;
    let stored: Promise<StoredFile> | undefined;

    let formError: unknown;
    try {
      await readForm(req, (stream, info) => {
        // A part without a file name is no file (Django leaves it out of request.FILES).
        if (!info.filename) return void stream.resume();
        files++;
        if (files > 1) return void stream.resume();
        const counter = new ByteCounter(MAX_FILE_BYTES);
        // Past the limit, or when storage fails: the rest of the part is read and dropped, so the form goes on to its end.
        const drain = () => {
          stream.unpipe(counter);
          stream.resume();
        };
        // A part that fails (the form cut short, the client gone) fails its write, which removes the partial file.
        stream.on('error', (error) => counter.destroy(error));
        counter.on('error', drain);
        stream.pipe(counter);
        // busboy reports text/plain for a part that names no type: then the name decides.
        const given = info.mimeType === 'text/plain' && !/\.te?xt$/i.test(info.filename) ? undefined : info.mimeType;
        stored = this.store.write(caller.realm.id, info.filename, counter, given).then((file) => ({ ...file, size: counter.bytes }));
        stored.catch(drain);
      });
    } catch (error) {
      formError = error;
    }
    const outcome = stored ? await stored.then((file) => ({ file, error: undefined }), (error: unknown) => ({ file: undefined, error })) : undefined;
    const file = outcome?.file;
    if (formError || files !== 1 || !file) {
      if (file) await this.storage.delete(file.pathId).catch(() => undefined);
      if (formError) throw formError;
      if (files > 1) throw badRequest('You may only upload one file at a time');
      if (files === 0) throw badRequest('You must specify a file to upload');
      throw outcome?.error; // too large (a ZulipError), or storage's own failure (a server fault)
    }
    const attachment = await this.store.record({ id: caller.user.id, realmId: caller.realm.id }, file, file.size);
    return { uri: attachment.url, url: attachment.url, filename: attachment.filename };
  }
}

/**
 * Reads the request's multipart body with busboy, handing each file part to `onFile`; resolves
 * once the whole body is parsed. Every way it can fail ends here, once: whatever busboy refuses
 * (thrown at construction, or emitted by the parser or a part stream) rejects with
 * multipartFault's verdict, a client gone mid-body with ClientGone. On failure the parser is
 * destroyed, which fails any part still being read (so its write is abandoned), and the rest of
 * the request is read and dropped. No handler here can throw out of an event.
 */
export function readForm(
  req: IncomingMessage,
  onFile: (stream: Readable, info: busboy.FileInfo) => void,
  onField?: (name: string, value: string) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { fields: 1000, fieldSize: 1024 * 1024 } });
    } catch (error) {
      req.resume();
      reject(multipartFault(error));
      return;
    }
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      const fault = multipartFault(error);
      req.unpipe(parser);
      req.resume();
      parser.destroy(fault);
      reject(fault);
    };
    parser.on('error', fail);
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      resolve();
    });
    parser.on(
      'file',
      guarded(fail, (_field: string, stream: Readable, info: busboy.FileInfo) => {
        stream.on('error', fail);
        onFile(stream, info);
      }),
    );
    if (onField) parser.on('field', guarded(fail, (name: string, value: string) => onField(name, value)));
    req.on('error', (error) => fail(new ClientGone(error)));
    req.on('close', () => {
      if (!req.complete) fail(new ClientGone());
    });
    req.pipe(parser);
  });
}

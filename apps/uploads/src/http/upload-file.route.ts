import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import { Injectable } from '@nestjs/common';
import busboy from 'busboy';
import { badRequest } from '@teamchat/zulip';
import { FileStorage } from '../storage/file-storage';
import { MAX_FILE_BYTES, StoreAttachment, fileTooLarge } from '../attachments/store-attachment.use-case';
import type { Caller } from './caller';

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

/**
 * POST /user_uploads (Zulip's upload_file_backend): multipart form data with exactly one file,
 * streamed part by part to storage, never held whole in memory. The first file part is stored
 * as it arrives; any further one is drained and refuses the upload, as is a file past the size
 * limit (its partial data is removed); either way the request is read to its end before the
 * answer, so the client sees the error rather than a reset connection.
 */
@Injectable()
export class UploadFileRoute {
  constructor(
    private readonly store: StoreAttachment,
    private readonly storage: FileStorage,
  ) {}

  async serve(req: IncomingMessage, res: ServerResponse, caller: Caller & { user: NonNullable<Caller['user']> }): Promise<object> {
    if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
      req.resume();
      throw badRequest('You must specify a file to upload');
    }
    await this.store.checkQuota(caller.realm.id, 0);
    const parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { fields: 1000, fieldSize: 1024 * 1024 } });
    let files = 0;
    let stored: Promise<{ pathId: string; filename: string; contentType: string; size: number }> | undefined;
    let failure: unknown;

    const parsed = new Promise<void>((resolve, reject) => {
      parser.on('file', (_field, stream, info) => {
        // A part without a file name is no file (Django leaves it out of request.FILES).
        if (!info.filename) return stream.resume();
        files++;
        if (files > 1) return stream.resume();
        const counter = new ByteCounter(MAX_FILE_BYTES);
        const body = new PassThrough();
        stream.pipe(counter).pipe(body);
        counter.on('error', (error) => {
          stream.unpipe(counter);
          stream.resume(); // drain the rest of the part
          body.destroy(error);
        });
        // busboy reports text/plain for a part that names no type: then the name decides.
        const given = info.mimeType === 'text/plain' && !/\.te?xt$/i.test(info.filename) ? undefined : info.mimeType;
        stored = this.store.write(caller.realm.id, info.filename, body, given).then((file) => ({ ...file, size: counter.bytes }));
        stored.catch((error: unknown) => {
          failure ??= error;
        });
      });
      parser.on('close', resolve);
      parser.on('error', reject);
      req.on('aborted', () => reject(new Error('request aborted')));
    });
    req.pipe(parser);
    try {
      await parsed;
    } catch (error) {
      failure ??= error;
    }
    const file = stored ? await stored.catch(() => undefined) : undefined;
    if (failure || files !== 1 || !file) {
      if (file) await this.storage.delete(file.pathId).catch(() => undefined);
      if (files > 1) throw badRequest('You may only upload one file at a time');
      if (files === 0) throw badRequest('You must specify a file to upload');
      throw failure;
    }
    const attachment = await this.store.record({ id: caller.user.id, realmId: caller.realm.id }, file, file.size);
    return { uri: attachment.url, url: attachment.url, filename: attachment.filename };
  }
}

import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import { FileStorage, type ByteRange } from './file-storage';

export interface S3Settings {
  bucket: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * Objects in one bucket of S3-compatible storage, keyed by path id, so every uploads replica
 * shares one store. Writes are multipart uploads of 5 MiB parts (at most 4 parts in memory); a
 * failed one is aborted, so nothing is left behind.
 */
export class S3FileStorage extends FileStorage {
  readonly kind = 's3';
  readonly client: S3Client;

  constructor(readonly settings: S3Settings) {
    super();
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
      ...(settings.accessKeyId ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } } : {}),
    });
  }

  async write(key: string, body: Readable, contentType: string): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: key, Body: body, ContentType: contentType },
      queueSize: 4,
      partSize: 5 * 1024 * 1024,
      leavePartsOnError: false,
    });
    // A source stream that fails must abort the upload, not leave it waiting for more data.
    const failed = new Promise<never>((_, reject) =>
      body.once('error', (error) => {
        void upload.abort().catch(() => undefined);
        reject(error);
      }),
    );
    await Promise.race([upload.done(), failed]);
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const answer = await this.client.send(
      new GetObjectCommand({ Bucket: this.settings.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
    );
    return answer.Body as Readable;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  async exists(key: string): Promise<boolean> {
    return this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key })).then(
      () => true,
      () => false,
    );
  }
}

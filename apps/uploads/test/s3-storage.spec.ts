import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Factory, TestSystem, freePort, type TestUser } from '@teamchat/testing';
// s3rver: an S3-compatible server, run here for real (its own HTTP server, files on a temporary disk).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<unknown>; close(): Promise<void> };
import { bytes, multipart, send } from './http';

const MiB = 1024 * 1024;
const BUCKET = 'teamchat-uploads';

/**
 * The S3 backend against a real S3-compatible server (s3rver), through the same HTTP routes
 * clients use: uploads land in the bucket and read back (ranges too); a refused upload leaves
 * nothing there; the organization's quota holds; resumable uploads stage their parts in the
 * bucket and leave only the finished file.
 */
describe('uploads on S3-compatible storage', () => {
  let s3dir: string;
  let s3: { close(): Promise<void> };
  let client: S3Client;
  let system: TestSystem;
  let subdomain: string;
  let uploader: TestUser;

  const keys = async () => ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key!);
  const upload = (parts: Parameters<typeof multipart>[0]) => {
    const { body, headers } = multipart(parts);
    return send(system, 'POST', '/api/v1/user_uploads', { subdomain, auth: uploader, headers, body });
  };

  beforeAll(async () => {
    s3dir = mkdtempSync(path.join(tmpdir(), 's3rver-'));
    const port = await freePort();
    s3 = new S3rver({ port, address: '127.0.0.1', silent: true, directory: s3dir, configureBuckets: [{ name: BUCKET }] });
    await (s3 as unknown as { run(): Promise<unknown> }).run();
    const endpoint = `http://127.0.0.1:${port}`;
    client = new S3Client({ endpoint, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    system = await TestSystem.start({
      env: {
        UPLOADS_BACKEND: 's3',
        S3_ENDPOINT_URL: endpoint,
        S3_AUTH_UPLOADS_BUCKET: BUCKET,
        S3_KEY: 'S3RVER',
        S3_SECRET_KEY: 'S3RVER',
        REALM_UPLOAD_QUOTA_MIB: '3',
      },
    });
    const factory = new Factory(system.db);
    const org = await factory.organization({ subdomain: 's3uploads' });
    subdomain = org.subdomain;
    uploader = await factory.user(org, { fullName: 'Uploader' });
  }, 60000);
  afterAll(async () => {
    await system?.stop();
    await s3?.close();
    rmSync(s3dir, { recursive: true, force: true });
  });

  it('stores a plain upload in the bucket under its path id and reads it back, ranges included', async () => {
    const content = Buffer.from('stored in object storage');
    const res = await upload([{ field: 'file', filename: 'cloud.txt', type: 'text/plain', content }]);
    expect(res.status).toBe(200);
    const { url } = res.json() as { url: string };
    expect(await keys()).toContain(url.replace('/user_uploads/', ''));
    const file = await send(system, 'GET', url, { subdomain, auth: uploader });
    expect(file.status).toBe(200);
    expect(file.body.equals(content)).toBe(true);
    const part = await send(system, 'GET', url, { subdomain, auth: uploader, headers: { Range: 'bytes=10-15' } });
    expect(part.status).toBe(206);
    expect(part.body.toString()).toBe(content.subarray(10, 16).toString());
  });

  it('streams a 2 MiB file through, and refuses what the quota cannot take, leaving nothing in the bucket', async () => {
    const big = await upload([{ field: 'file', filename: 'big.bin', type: 'application/octet-stream', content: bytes(2 * MiB) }]);
    expect(big.status).toBe(200);
    const before = await keys();
    const over = await upload([{ field: 'file', filename: 'over.bin', type: 'application/octet-stream', content: bytes(2 * MiB) }]);
    expect({ status: over.status, body: over.json() }).toEqual({
      status: 400,
      body: { result: 'error', code: 'REALM_UPLOAD_QUOTA', msg: "Upload would exceed your organization's upload quota." },
    });
    expect(await keys()).toEqual(before);
  });

  describe('resumable uploads (tus)', () => {
    const tus = (method: string, path: string, headers: Record<string, string | number> = {}, body?: Buffer) =>
      send(system, method, path, { subdomain, auth: uploader, headers: { 'Tus-Resumable': '1.0.0', ...headers }, body });
    const patch = (location: string, offset: number, body: Buffer) =>
      tus('PATCH', location, { 'Upload-Offset': offset, 'Content-Type': 'application/offset+octet-stream' }, body);
    const filename = (name: string) => `filename ${Buffer.from(name).toString('base64')}`;

    it('stages chunks in the bucket, resumes at the stored offset, and leaves only the finished file', async () => {
      const before = await keys();
      const content = Buffer.concat([Buffer.alloc(MiB / 2, 'resumable'), Buffer.from('the end')]);
      const created = await tus('POST', '/api/v1/tus', { 'Upload-Length': content.length, 'Upload-Metadata': filename('resumed.bin') });
      expect(created.status).toBe(201);
      const location = created.headers.location as string;

      expect((await patch(location, 0, content.subarray(0, 1000))).headers['upload-offset']).toBe('1000');
      expect((await keys()).filter((key) => key.startsWith('tus/'))).toHaveLength(1);
      expect((await patch(location, 500, content.subarray(500))).status).toBe(409);
      const head = await tus('HEAD', location);
      expect([head.headers['upload-offset'], head.headers['upload-length']]).toEqual(['1000', String(content.length)]);

      const last = await patch(location, 1000, content.subarray(1000));
      expect(last.status).toBe(200);
      const { url } = last.json() as { url: string };
      const file = await send(system, 'GET', url, { subdomain, auth: uploader });
      expect(file.body.equals(content)).toBe(true);
      expect((await keys()).sort()).toEqual([...before, url.replace('/user_uploads/', '')].sort());
      // Its parts are gone from the bucket, its state stays: HEAD answers the full offset.
      const after = await tus('HEAD', location);
      expect([after.status, after.headers['upload-offset']]).toEqual([200, String(content.length)]);
    });

    it('removes a terminated upload’s parts from the bucket', async () => {
      const before = await keys();
      const created = await tus('POST', '/api/v1/tus', { 'Upload-Length': 100, 'Upload-Metadata': filename('dropped.bin') });
      const location = created.headers.location as string;
      expect((await patch(location, 0, Buffer.alloc(40, 1))).status).toBe(204);
      expect((await keys()).length).toBe(before.length + 1);
      expect((await tus('DELETE', location)).status).toBe(204);
      expect(await keys()).toEqual(before);
    });

    it('answers 404 for upload ids it never made, whatever they hold', async () => {
      for (const id of ['..%2F..%2Fetc', Buffer.from('tus/../x').toString('base64url'), 'f'.repeat(31), 'F'.repeat(32)]) {
        expect({ id, status: (await tus('HEAD', `/api/v1/tus/${id}`)).status }).toEqual({ id, status: 404 });
        expect({ id, status: (await patch(`/api/v1/tus/${id}`, 0, Buffer.from('data'))).status }).toEqual({ id, status: 404 });
      }
    });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Factory, TestSystem, type TestUser } from '@teamchat/testing';
// s3rver: an S3-compatible server, run here for real (its own HTTP server, files on a temporary disk).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<unknown>; close(): Promise<void> };
import { bytes, multipart, send } from './http';

const MiB = 1024 * 1024;
const BUCKET = 'teamchat-uploads';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

/**
 * The S3 backend against a real S3-compatible server (s3rver), through the same HTTP routes
 * clients use: uploads land in the bucket and read back (ranges too); a refused upload leaves
 * nothing there; the organization's quota holds. (tus on S3 is not covered: s3rver does not
 * implement ListParts, which @tus/s3-store needs.)
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
});

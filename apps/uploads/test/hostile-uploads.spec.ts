import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { Factory, TEST_ROOT_HOST, TestSystem, type TestUser } from '@teamchat/testing';
import { bytes, multipart, send, type RawResponse } from './http';

/**
 * Hostile input to the uploads service's file routes, through the gateway: each request is
 * answered with a 4xx envelope (or succeeds where Zulip succeeds), nothing it half-wrote stays
 * behind, and the service is still up and serving afterwards.
 */
describe('uploads: hostile input', () => {
  let system: TestSystem;
  let factory: Factory;
  let subdomain: string;
  let realmId: number;
  let user: TestUser;

  const auth = () => ({ email: user.email, apiKey: user.apiKey });
  const post = (headers: Record<string, string | number>, body?: Buffer) =>
    send(system, 'POST', '/api/v1/user_uploads', { subdomain, auth: auth(), headers, body });
  const get = (url: string) => send(system, 'GET', url, { subdomain, auth: auth() });
  const tus = (method: string, url: string, headers: Record<string, string | number> = {}, body?: Buffer) =>
    send(system, method, url, { subdomain, auth: auth(), headers: { 'Tus-Resumable': '1.0.0', ...headers }, body });
  const meta = (fields: Record<string, string>) =>
    Object.entries(fields)
      .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
      .join(',');
  const errorOf = (res: RawResponse) => ({ status: res.status, body: res.json() });
  const badRequest = (msg: string | RegExp) => ({ status: 400, body: { result: 'error', code: 'BAD_REQUEST', msg: typeof msg === 'string' ? msg : expect.stringMatching(msg) } });
  const notFound = { status: 404, body: { result: 'error', code: 'BAD_REQUEST', msg: 'This file does not exist or has been deleted.' } };

  /** Every file under the uploads directory (attachments and tus parts), the attachment rows and the tus uploads. */
  const stored = async () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      if (!existsSync(dir)) return;
      for (const entry of readdirSync(dir)) {
        const full = path.join(dir, entry);
        if (statSync(full).isDirectory()) walk(full);
        else files.push(path.relative(system.env.LOCAL_UPLOADS_DIR, full));
      }
    };
    walk(system.env.LOCAL_UPLOADS_DIR);
    // Resumable uploads still holding something: a finished one keeps only its state, for HEAD.
    const [{ held }] = await system.db.$queryRaw<{ held: number }[]>`SELECT count(*)::int AS held FROM tus_uploads WHERE "offset" < size OR cardinality(parts) > 0`;
    return { files: files.sort(), attachments: await system.db.attachment.count(), tusUploads: held };
  };
  /** Waits until what is stored equals `expected` (a failed write is cleaned up as the request ends, maybe just after the answer). */
  const settlesTo = async (expected: Awaited<ReturnType<typeof stored>>) => {
    let now = await stored();
    for (let i = 0; i < 50 && JSON.stringify(now) !== JSON.stringify(expected); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      now = await stored();
    }
    expect(now).toEqual(expected);
  };
  /** The uploads process is running, and a plain upload works and reads back. */
  const stillServing = async () => {
    expect(system.pids().has('uploads')).toBe(true);
    const { body, headers } = multipart([{ field: 'file', filename: 'after.txt', type: 'text/plain', content: Buffer.from('still here') }]);
    const res = await send(system, 'POST', '/api/v1/user_uploads', { subdomain, auth: auth(), headers, body });
    expect(res.status).toBe(200);
    const { url } = res.json() as { url: string };
    expect((await get(url)).body.toString()).toBe('still here');
    const row = await system.db.attachment.findFirstOrThrow({ where: { pathId: url.replace('/user_uploads/', '') } });
    await system.api.delete(`/attachments/${row.id}`, {}, { auth: user, subdomain });
    expect(system.pids().has('uploads')).toBe(true);
  };
  /** Sends raw bytes to the gateway and closes the connection without waiting for an answer (a client gone mid-body). */
  const sendAndHangUp = (head: string, body: Buffer) =>
    new Promise<void>((resolve, reject) => {
      const socket = connect(system.ports.gateway, '127.0.0.1', () => {
        socket.write(head);
        socket.write(body, () => setTimeout(() => socket.destroy(), 300));
      });
      socket.on('error', reject);
      socket.on('close', () => resolve());
    });
  const basic = () => `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`;

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organization({ subdomain: 'hostile' });
    subdomain = org.subdomain;
    realmId = org.id;
    user = await factory.user(org, { fullName: 'Hostile' });
  }, 60000);
  afterAll(() => system.stop());

  describe('POST /user_uploads with a malformed multipart body', () => {
    it('a body that ends inside the file part: 400, no partial file kept, still serving', async () => {
      const before = await stored();
      const body = Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nx');
      expect(errorOf(await post({ 'Content-Type': 'multipart/form-data; boundary=B' }, body))).toEqual(badRequest(/^Malformed multipart body/));
      await settlesTo(before);
      await stillServing();
    });

    it('a body that ends after a whole file part but before the closing boundary: 400, the file is not kept', async () => {
      const before = await stored();
      const body = Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nwhole\r\n--B\r\n');
      expect(errorOf(await post({ 'Content-Type': 'multipart/form-data; boundary=B' }, body))).toEqual(badRequest(/^Malformed multipart body/));
      await settlesTo(before);
      await stillServing();
    });

    it('a body that ends inside a second file part or a part without a file name: 400', async () => {
      const before = await stored();
      const second = Buffer.from(
        '--B\r\nContent-Disposition: form-data; name="a"; filename="one.txt"\r\n\r\n1\r\n' +
          '--B\r\nContent-Disposition: form-data; name="b"; filename="two.txt"\r\n\r\n2',
      );
      expect(errorOf(await post({ 'Content-Type': 'multipart/form-data; boundary=B' }, second))).toEqual(badRequest(/^Malformed multipart body/));
      const nameless = Buffer.from('--B\r\nContent-Disposition: form-data; name="a"; filename=""\r\n\r\n1');
      expect(errorOf(await post({ 'Content-Type': 'multipart/form-data; boundary=B' }, nameless))).toEqual(badRequest(/^Malformed multipart body/));
      await settlesTo(before);
      await stillServing();
    });

    it('a malformed part header, or garbage, or nothing: 400', async () => {
      const before = await stored();
      for (const body of [
        Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: te\u0001xt/plain\r\n\r\nx\r\n--B--\r\n'),
        Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n'),
        Buffer.from('garbage'),
      ]) {
        expect(errorOf(await post({ 'Content-Type': 'multipart/form-data; boundary=B' }, body))).toEqual(badRequest(/^Malformed multipart body/));
      }
      // An empty body is an empty form, as Django reads it.
      expect(errorOf(await post({ 'Content-Type': 'multipart/form-data; boundary=B', 'Content-Length': 0 }, Buffer.alloc(0)))).toEqual(
        badRequest('You must specify a file to upload'),
      );
      await settlesTo(before);
      await stillServing();
    });

    it('multipart without a boundary, with an empty one, or another multipart type: 400', async () => {
      const before = await stored();
      for (const type of ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=""', 'multipart/form-data; boundary', 'multipart/form-dataxyz']) {
        const res = await post({ 'Content-Type': type }, Buffer.from('x'));
        expect({ type, ...errorOf(res) }).toEqual({ type, ...badRequest(/^Malformed multipart body|^You must specify a file to upload$/) });
      }
      await settlesTo(before);
      await stillServing();
    });

    it('a client that hangs up mid-file: nothing kept, still serving', async () => {
      const before = await stored();
      const head =
        `POST /api/v1/user_uploads HTTP/1.1\r\nHost: ${subdomain}.${TEST_ROOT_HOST}\r\nAuthorization: ${basic()}\r\n` +
        'Content-Type: multipart/form-data; boundary=B\r\nContent-Length: 1000000\r\n\r\n';
      await sendAndHangUp(head, Buffer.concat([Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n'), Buffer.alloc(64 * 1024, 1)]));
      await settlesTo(before);
      await stillServing();
    });

    it('a client that hangs up with chunked encoding cut mid-chunk: nothing kept, still serving', async () => {
      const before = await stored();
      const head =
        `POST /api/v1/user_uploads HTTP/1.1\r\nHost: ${subdomain}.${TEST_ROOT_HOST}\r\nAuthorization: ${basic()}\r\n` +
        'Content-Type: multipart/form-data; boundary=B\r\nTransfer-Encoding: chunked\r\n\r\n';
      const part = Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\nabc');
      await sendAndHangUp(head, Buffer.concat([Buffer.from(`${(part.length + 100).toString(16)}\r\n`), part]));
      await settlesTo(before);
      await stillServing();
    });

    it('NUL bytes and invalid UTF-8 in the part’s file name never reach Postgres', async () => {
      const names = [
        `filename*=UTF-8''a%00b.txt`,
        `filename*=UTF-8''%00`,
        `filename*=UTF-8''bad%FF%FE%ED%A0%80.txt`,
        'filename="raw\xff\xfe.txt"',
      ];
      const results: unknown[] = [];
      for (const name of names) {
        const body = Buffer.from(`--B\r\nContent-Disposition: form-data; name="file"; ${name}\r\nContent-Type: text/plain\r\n\r\nx\r\n--B--\r\n`, 'latin1');
        const res = await post({ 'Content-Type': 'multipart/form-data; boundary=B' }, body);
        results.push({ status: res.status, filename: (res.json() as { filename?: string }).filename });
        if (res.status === 200) expect((await get((res.json() as { url: string }).url)).status).toBe(200);
      }
      expect(results).toEqual([
        { status: 200, filename: 'ab.txt' },
        { status: 200, filename: 'uploaded-file' },
        { status: 200, filename: 'bad.txt' },
        { status: 200, filename: 'raw.txt' },
      ]);
      await stillServing();
    });

    it('a part Content-Type too long for the column is replaced by the name’s type', async () => {
      const type = `application/${'x'.repeat(300)}`;
      const body = Buffer.from(`--B\r\nContent-Disposition: form-data; name="file"; filename="long.txt"\r\nContent-Type: ${type}\r\n\r\nx\r\n--B--\r\n`);
      const res = await post({ 'Content-Type': 'multipart/form-data; boundary=B' }, body);
      expect(res.status).toBe(200);
      expect((await get((res.json() as { url: string }).url)).headers['content-type']).toBe('text/plain');
      await stillServing();
    });
  });

  describe('storage that fails', () => {
    /** Puts a file where storage wants a directory, so every write under `key` fails (root ignores permissions, not this). */
    const blockDirectory = (key: string) => {
      const at = path.join(system.env.LOCAL_UPLOADS_DIR, key);
      mkdirSync(path.dirname(at), { recursive: true });
      writeFileSync(at, 'in the way');
      return () => rmSync(at);
    };

    it('a file that cannot be stored: 500 envelope (our fault, not the client’s), the request read to its end, still serving', async () => {
      const org = await factory.organization({ subdomain: 'hostile-disk' });
      const owner = await factory.user(org, { fullName: 'Disk' });
      const unblock = blockDirectory(String(org.id));
      const attachments = await system.db.attachment.count();
      for (const size of [10, 3 * 1024 * 1024]) {
        const { body, headers } = multipart([{ field: 'file', filename: 'nowhere.bin', content: bytes(size) }]);
        const res = await send(system, 'POST', '/api/v1/user_uploads', { subdomain: org.subdomain, auth: owner, headers, body });
        expect({ size, ...errorOf(res) }).toMatchObject({ size, status: 500, body: { result: 'error', code: 'INTERNAL_SERVER_ERROR', msg: 'Internal server error' } });
      }
      expect(await system.db.attachment.count()).toBe(attachments);
      expect(system.pids().has('uploads')).toBe(true);
      unblock();
      const { body, headers } = multipart([{ field: 'file', filename: 'somewhere.txt', content: Buffer.from('stored now') }]);
      const res = await send(system, 'POST', '/api/v1/user_uploads', { subdomain: org.subdomain, auth: owner, headers, body });
      expect(res.status).toBe(200);
      await stillServing();
    });

    it('a tus part that cannot be stored: 500, the upload stays where it was and goes on once storage works', async () => {
      const content = Buffer.from('written later');
      const created = await tus('POST', '/api/v1/tus', { 'Upload-Length': content.length, 'Upload-Metadata': meta({ filename: 'later.txt' }) });
      const location = created.headers.location as string;
      const unblock = blockDirectory(`tus/${location.split('/').pop()}`);
      const failed = await tus('PATCH', location, { 'Upload-Offset': 0, 'Content-Type': 'application/offset+octet-stream' }, content);
      expect({ status: failed.status, body: failed.json() }).toEqual({ status: 500, body: { message: 'Internal server error' } });
      expect((await tus('HEAD', location)).headers['upload-offset']).toBe('0');
      unblock();
      const done = await tus('PATCH', location, { 'Upload-Offset': 0, 'Content-Type': 'application/offset+octet-stream' }, content);
      expect(done.status).toBe(200);
      expect((await get((done.json() as { url: string }).url)).body.equals(content)).toBe(true);
      await stillServing();
    });
  });

  describe('GET a file by a hostile path', () => {
    it('NUL in the path: 404 like an unknown file, on both routes', async () => {
      for (const url of ['/api/v1/user_uploads/1/%00', '/user_uploads/1/%00', `/api/v1/user_uploads/${realmId}/%00`, `/user_uploads/${realmId}/%00`, `/user_uploads/${realmId}/ab/${'x'.repeat(24)}/a%00b.txt`]) {
        const res = await get(url);
        expect({ url, ...errorOf(res) }).toEqual({ url, ...notFound });
      }
      await stillServing();
    });

    it('invalid UTF-8 or percent-encoding in the path: 404', async () => {
      for (const url of [`/user_uploads/${realmId}/%FF`, `/user_uploads/${realmId}/%ED%A0%80`, `/user_uploads/${realmId}/%`, `/api/v1/user_uploads/${realmId}/%E0%A4%A`]) {
        const res = await get(url);
        expect({ url, status: res.status, code: (res.json() as { code?: string }).code }).toEqual({ url, status: 404, code: expect.any(String) });
      }
      await stillServing();
    });
  });

  describe('straight to the uploads listener (which only the gateway should reach)', () => {
    /** Raw bytes to UPLOADS_URL; resolves with the status line of the answer, or '' if the connection closed without one. */
    const direct = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const url = new URL(system.env.UPLOADS_URL);
        const socket = connect(Number(url.port), url.hostname, () => socket.end(request));
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
        socket.on('error', reject);
        socket.on('close', () => resolve(answer.split('\r\n')[0]));
      });

    it('request targets no URL parser takes, and a request without the caller header: 4xx, still serving', async () => {
      for (const target of ['http://[/user_uploads/1/x', 'http://%/x', '//', '/user_uploads/1/%00']) {
        const status = await direct(`GET ${target} HTTP/1.1\r\nHost: uploads\r\nConnection: close\r\n\r\n`);
        expect({ target, status }).toEqual({ target, status: expect.stringMatching(/^HTTP\/1\.1 4\d\d /) });
      }
      const status = await direct('POST /api/v1/user_uploads HTTP/1.1\r\nHost: uploads\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 3\r\nConnection: close\r\n\r\n--B');
      expect(status).toBe('HTTP/1.1 401 Unauthorized');
      await stillServing();
    });
  });

  describe('resumable uploads (tus) with hostile input', () => {
    it('NUL in Upload-Metadata values is dropped: the upload completes with the name Zulip would keep', async () => {
      const content = Buffer.from('abc');
      const created = await tus('POST', '/api/v1/tus', {
        'Upload-Length': content.length,
        'Upload-Metadata': meta({ filename: 'a\u0000b.txt', filetype: 'text/pl\u0000ain', other: '\u0000\u0000' }),
      });
      expect(created.status).toBe(201);
      const done = await tus('PATCH', created.headers.location as string, { 'Upload-Offset': 0, 'Content-Type': 'application/offset+octet-stream' }, content);
      expect(done.status).toBe(200);
      const { url, filename } = done.json() as { url: string; filename: string };
      expect(filename).toBe('ab.txt');
      expect(url.endsWith('/ab.txt')).toBe(true);
      const file = await get(url);
      expect(file.body.toString()).toBe('abc');
      expect(file.headers['content-type']).toBe('text/plain');
      await stillServing();
    });

    it('a filename that is only NUL, and a filetype no header may carry, fall back to Zulip’s defaults', async () => {
      const created = await tus('POST', '/api/v1/tus', {
        'Upload-Length': 1,
        'Upload-Metadata': meta({ filename: '\u0000', filetype: 'text/html\r\nX-Injected: 1' }),
      });
      expect(created.status).toBe(201);
      const done = await tus('PATCH', created.headers.location as string, { 'Upload-Offset': 0, 'Content-Type': 'application/offset+octet-stream' }, Buffer.from('z'));
      expect(done.status).toBe(200);
      const { url, filename } = done.json() as { url: string; filename: string };
      expect(filename).toBe('uploaded-file');
      const file = await get(url);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe('application/octet-stream');
      expect(file.headers['x-injected']).toBeUndefined();
      await stillServing();
    });

    it('creation with upload (creation-with-upload): the whole file in the POST completes it at once', async () => {
      const content = Buffer.from('created with its data');
      const res = await tus(
        'POST',
        '/api/v1/tus',
        { 'Upload-Length': content.length, 'Upload-Metadata': meta({ filename: 'at-once.txt', filetype: 'text/plain' }), 'Content-Type': 'application/offset+octet-stream' },
        content,
      );
      expect(res.status).toBe(200);
      expect(res.headers['upload-offset']).toBe(String(content.length));
      expect(res.headers.location).toMatch(/^\/api\/v1\/tus\/[0-9a-f]{32}$/);
      const { url, filename } = res.json() as { url: string; filename: string };
      expect(filename).toBe('at-once.txt');
      expect(url).toMatch(new RegExp(`^/user_uploads/${realmId}/[0-9a-f]{2}/[A-Za-z0-9_-]{24}/at-once\\.txt$`));
      expect((await get(url)).body.equals(content)).toBe(true);
      await settlesTo({ ...(await stored()), tusUploads: 0 });
      await stillServing();
    });

    it('creation with part of the data: 201 at the offset reached, then PATCH the rest', async () => {
      const content = Buffer.from('0123456789');
      const created = await tus(
        'POST',
        '/api/v1/tus',
        { 'Upload-Length': content.length, 'Upload-Metadata': meta({ filename: 'halves.txt' }), 'Content-Type': 'application/offset+octet-stream' },
        content.subarray(0, 4),
      );
      expect(created.status).toBe(201);
      expect(created.headers['upload-offset']).toBe('4');
      const location = created.headers.location as string;
      expect((await tus('HEAD', location)).headers['upload-offset']).toBe('4');
      const done = await tus('PATCH', location, { 'Upload-Offset': 4, 'Content-Type': 'application/offset+octet-stream' }, content.subarray(4));
      expect(done.status).toBe(200);
      expect((await get((done.json() as { url: string }).url)).body.equals(content)).toBe(true);
      await stillServing();
    });

    it('Upload-Length: 0 creates and completes an empty file at once, with or without an (empty) body', async () => {
      for (const headers of [{}, { 'Content-Type': 'application/offset+octet-stream' }] as Record<string, string>[]) {
        const res = await tus('POST', '/api/v1/tus', { 'Upload-Length': 0, 'Upload-Metadata': meta({ filename: 'empty.txt' }), ...headers }, Buffer.alloc(0));
        expect(res.status).toBe(200);
        const { url, filename } = res.json() as { url: string; filename: string };
        expect(filename).toBe('empty.txt');
        const file = await get(url);
        expect(file.status).toBe(200);
        expect(file.body.length).toBe(0);
        const row = await system.db.attachment.findFirstOrThrow({ where: { pathId: url.replace('/user_uploads/', '') } });
        expect(Number(row.size)).toBe(0);
      }
      await settlesTo({ ...(await stored()), tusUploads: 0 });
      await stillServing();
    });

    it('more data in the creation request than the upload’s length: refused, nothing kept', async () => {
      const before = await stored();
      const res = await tus('POST', '/api/v1/tus', { 'Upload-Length': 2, 'Content-Type': 'application/offset+octet-stream' }, Buffer.from('too long'));
      expect(res.status).toBe(413);
      await settlesTo(before);
      await stillServing();
    });

    it('a PATCH whose client hangs up mid-body leaves the upload where it was, and it can go on', async () => {
      const content = Buffer.from('resumed after a cut');
      const created = await tus('POST', '/api/v1/tus', { 'Upload-Length': content.length, 'Upload-Metadata': meta({ filename: 'cut.txt' }) });
      const location = created.headers.location as string;
      const head =
        `PATCH ${location} HTTP/1.1\r\nHost: ${subdomain}.${TEST_ROOT_HOST}\r\nAuthorization: ${basic()}\r\nTus-Resumable: 1.0.0\r\n` +
        `Upload-Offset: 0\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: ${content.length}\r\n\r\n`;
      await sendAndHangUp(head, content.subarray(0, 5));
      // The cut PATCH either stored nothing or the bytes it got: resume from what HEAD says.
      let offset = -1;
      for (let i = 0; i < 50; i++) {
        const head = await tus('HEAD', location);
        expect(head.status).toBe(200);
        offset = Number(head.headers['upload-offset']);
        if (offset === 0 || offset === 5) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect([0, 5]).toContain(offset);
      const done = await tus('PATCH', location, { 'Upload-Offset': offset, 'Content-Type': 'application/offset+octet-stream' }, content.subarray(offset));
      expect(done.status).toBe(200);
      expect((await get((done.json() as { url: string }).url)).body.equals(content)).toBe(true);
      await stillServing();
    });
  });
});

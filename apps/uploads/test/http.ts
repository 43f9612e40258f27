import { request } from 'node:http';
import { Readable } from 'node:stream';
import { TEST_ROOT_HOST, type TestSystem } from '@teamchat/testing';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json: () => Record<string, unknown>;
}

/** One HTTP request to the gateway with a streamed body (node:http: fetch will not send our Host header). */
export function send(
  system: TestSystem,
  method: string,
  path: string,
  options: { subdomain: string; auth?: { email: string; apiKey: string }; headers?: Record<string, string | number>; body?: Buffer | Readable },
): Promise<RawResponse> {
  const headers: Record<string, string | number> = { Host: `${options.subdomain}.${TEST_ROOT_HOST}`, ...options.headers };
  if (options.auth) headers.Authorization = `Basic ${Buffer.from(`${options.auth.email}:${options.auth.apiKey}`).toString('base64')}`;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: system.ports.gateway, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body.toString('utf8')) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body instanceof Readable) options.body.pipe(req);
    else req.end(options.body);
  });
}

/** A multipart body of the given parts, streamed (file contents may be large generated streams). */
export function multipart(parts: { field: string; filename?: string; type?: string; content: Buffer | (() => Readable) }[]) {
  const boundary = `----teamchat${Math.random().toString(16).slice(2)}`;
  async function* generate() {
    for (const part of parts) {
      // A name with control characters (a NUL byte) travels encoded, as RFC 5987 allows.
      const name = part.filename;
      const filename =
        name === undefined ? '' : /[\x00-\x1f]/.test(name) ? `; filename*=UTF-8''${encodeURIComponent(name)}` : `; filename="${name}"`;
      const disposition = `form-data; name="${part.field}"${filename}`;
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`);
      if (Buffer.isBuffer(part.content)) yield part.content;
      else for await (const chunk of part.content()) yield chunk as Buffer;
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return { body: Readable.from(generate()), headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` } };
}

/** `size` bytes of a repeating pattern, generated as it is read. */
export function bytes(size: number): () => Readable {
  return () => {
    let left = size;
    const block = Buffer.alloc(1024 * 1024, 'abcdefghijklmnopqrstuvwxyz0123456789');
    return new Readable({
      read() {
        if (left <= 0) return this.push(null);
        const n = Math.min(left, block.length);
        left -= n;
        this.push(n === block.length ? block : block.subarray(0, n));
      },
    });
  };
}

import http from 'node:http';
import type { HttpShape } from './requests';

export interface RawAnswer {
  /** 0 when no answer came (connection refused or reset, timeout). */
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as text (at most the first 4 MiB). */
  text: string;
  /** Why no answer came. */
  error?: string;
}

/** Enough for any error envelope (some echo a 1 MB value back); a file's bytes beyond it are not kept. */
const KEEP_BYTES = 4 * 1024 * 1024;

/**
 * Sends a request exactly as given (path, headers, body bytes) on a fresh connection: node:http,
 * since fetch normalises paths and will not send a Host header of our choosing. An answer that
 * arrives before the body is fully written (a 413, say) counts as the answer.
 */
export function sendRaw(port: number, host: string, shape: HttpShape, timeoutMs = 30_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { Host: host, Connection: 'close', ...shape.headers };
    if (shape.body) headers['Content-Length'] = String(shape.body.length);
    else if (shape.chunks) headers['Transfer-Encoding'] = 'chunked';
    let settled = false;
    const finish = (answer: RawAnswer) => {
      if (settled) return;
      settled = true;
      resolve(answer);
    };
    let req: http.ClientRequest;
    let responded = false;
    try {
      req = http.request({ host: '127.0.0.1', port, method: shape.method, path: shape.url, headers, agent: false }, (res) => {
        responded = true;
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept < KEEP_BYTES) chunks.push(chunk);
          kept += chunk.length;
        });
        const done = () => finish({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).subarray(0, KEEP_BYTES).toString('utf8') });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      });
    } catch (error) {
      // The client itself refused the request (a header it will not send): not the server's doing.
      finish({ status: -1, headers: {}, text: '', error: `client refused: ${(error as Error).message}` });
      return;
    }
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    // A write cut short after the answer began (the server refused the body early) is not a lost answer.
    req.on('error', (error) => {
      if (!responded) finish({ status: 0, headers: {}, text: '', error: error.message });
    });
    if (shape.chunks) {
      for (const chunk of shape.chunks) if (chunk.length > 0) req.write(chunk);
      req.end();
    } else req.end(shape.body);
  });
}

/** Runs `tasks` with at most `limit` at a time, in order of start. */
export async function pool<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

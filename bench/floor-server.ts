/**
 * The floor of `npm run bench:events`: the least work long-polling can cost on this machine.
 * One Node process, `node:http`, event queues in memory (bench/floor-queues.ts), no database,
 * no broker, no authentication: POST /api/v1/register makes a queue, GET /api/v1/events answers
 * its pending events or waits for one, POST /api/v1/messages appends a message event to every
 * queue. Run as its own process (so its CPU is its own): it prints its port on stdout.
 * bench/floor-net-server.ts is the same over bare sockets (BENCH_FLOOR_SERVER=net).
 */
import http from 'node:http';
import { announce, poll, register, sendMessage } from './floor-queues';

function answer(res: http.ServerResponse, body: string): void {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
  });
}

const server = http.createServer((req, res) => {
  const [path, query = ''] = (req.url ?? '').split('?');
  if (req.method === 'GET' && path === '/api/v1/events') {
    req.resume();
    const forget = poll(query, (body) => answer(res, body));
    res.once('close', forget);
    return;
  }
  void readBody(req).then((body) => {
    if (req.method === 'POST' && path === '/api/v1/register') return answer(res, register());
    if (req.method === 'POST' && path === '/api/v1/messages') return answer(res, sendMessage(body));
    res.writeHead(404).end();
  });
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  announce(typeof address === 'object' && address ? address.port : 0);
});

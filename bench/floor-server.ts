/**
 * The floor of `npm run bench:events`: the least work long-polling can cost on this machine.
 * One Node process, `node:http`, event queues in memory (bench/floor-queues.ts), no database,
 * no broker, no authentication: POST /api/v1/register makes a queue, GET /api/v1/events answers
 * its pending events or waits for one, POST /api/v1/messages appends a message event to every
 * queue. Run as its own process (so its CPU is its own): it prints its port on stdout.
 * bench/floor-net-server.ts is the same over bare sockets (BENCH_FLOOR_SERVER=net). With
 * FLOOR_DATABASE_URL it is the durable floor: each message stored in Postgres and Redis before
 * its polls are answered (bench/floor-durable.ts).
 */
import http from 'node:http';
import { DurableFloor } from './floor-durable';
import { announce, deliver, messageOf, pendingCounts, poll, queueIds, register, sendMessage } from './floor-queues';

// FLOOR_DATABASE_URL and FLOOR_REDIS_URL: the durable floor (see floor-durable.ts).
const durable = process.env.FLOOR_DATABASE_URL
  ? DurableFloor.open(process.env.FLOOR_DATABASE_URL, process.env.FLOOR_REDIS_URL ?? 'redis://127.0.0.1:6379', process.env.FLOOR_REDIS_PREFIX ?? 'floor:')
  : undefined;

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
    if (req.method === 'POST' && path === '/api/v1/messages') {
      if (!durable) return answer(res, sendMessage(body));
      const message = messageOf(body);
      return void durable
        .then((floor) => floor.store(message.id, message.message, queueIds(), () => deliver(message)))
        .then(
          () => answer(res, `{"result":"success","msg":"","id":${message.id}}`),
          () => res.writeHead(500).end(),
        );
    }
    res.writeHead(404).end();
  });
});
server.keepAliveTimeout = 120_000;
// Acknowledged events leave the durable lists twice a second, as the gateway writes acknowledgements back.
if (durable) setInterval(() => void durable.then((floor) => floor.trim(pendingCounts())), 500).unref();
void (durable ?? Promise.resolve()).then(() =>
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    announce(typeof address === 'object' && address ? address.port : 0, () => (durable ? durable.then((floor) => floor.close(queueIds())) : Promise.resolve()));
  }),
);

/**
 * The floor of `npm run bench:events`: the least work long-polling can cost on this machine.
 * One Node process, `node:http`, event queues in memory, no database, no broker, no
 * authentication: POST /api/v1/register makes a queue, GET /api/v1/events answers its pending
 * events or waits for one, POST /api/v1/messages appends a message event to every queue.
 * Run as its own process (so its CPU is its own): it prints its port on stdout.
 */
import http from 'node:http';
import { parse as parseQueryString } from 'node:querystring';

interface Queue {
  lastId: number;
  events: { id: number; text: string }[];
  waiting?: () => void;
}

const queues = new Map<string, Queue>();
let nextQueue = 0;
let nextMessage = 0;

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
    const params = parseQueryString(query);
    const queueId = String(params.queue_id);
    const queue = queues.get(queueId);
    if (!queue) return answer(res, `{"result":"error","msg":"Bad event queue ID: ${queueId}","code":"BAD_EVENT_QUEUE_ID"}`);
    const acknowledged = Number(params.last_event_id);
    while (queue.events.length > 0 && queue.events[0].id <= acknowledged) queue.events.shift();
    const send = () => answer(res, `{"result":"success","msg":"","events":[${queue.events.map((event) => event.text).join(',')}],"queue_id":"${queueId}"}`);
    if (queue.events.length > 0) return send();
    queue.waiting = send;
    res.once('close', () => queue.waiting === send && (queue.waiting = undefined));
    return;
  }
  void readBody(req).then((body) => {
    if (req.method === 'POST' && path === '/api/v1/register') {
      const queueId = `floor-${nextQueue++}`;
      queues.set(queueId, { lastId: -1, events: [] });
      return answer(res, `{"result":"success","msg":"","queue_id":"${queueId}","last_event_id":-1}`);
    }
    if (req.method === 'POST' && path === '/api/v1/messages') {
      const form = parseQueryString(body);
      const id = ++nextMessage;
      // Serialised once; each queue's copy differs only by its event id.
      const message = JSON.stringify({ id, type: 'stream', display_recipient: form.to, subject: form.topic, content: form.content, timestamp: Math.floor(Date.now() / 1000) });
      for (const queue of queues.values()) {
        const eventId = ++queue.lastId;
        queue.events.push({ id: eventId, text: `{"id":${eventId},"type":"message","flags":[],"message":${message}}` });
        const waiting = queue.waiting;
        queue.waiting = undefined;
        waiting?.();
      }
      return answer(res, `{"result":"success","msg":"","id":${id}}`);
    }
    res.writeHead(404).end();
  });
});
server.keepAliveTimeout = 120_000;
// Stopped by SIGTERM: exit as a normal end, so what `--cpu-prof` gathered is written.
process.once('SIGTERM', () => process.exit(0));
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});

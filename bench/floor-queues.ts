import { parse as parseQueryString } from 'node:querystring';

/**
 * The floor's event queues (see bench/floor-server.ts), in memory, whatever carries the
 * requests: each operation answers with the body to send, now or (a poll with nothing pending)
 * when an event arrives.
 */
interface Queue {
  lastId: number;
  events: { id: number; text: string }[];
  waiting?: () => void;
}

const queues = new Map<string, Queue>();
let nextQueue = 0;
let nextMessage = 0;

/** POST /api/v1/register: a new queue. */
export function register(): string {
  const queueId = `floor-${nextQueue++}`;
  queues.set(queueId, { lastId: -1, events: [] });
  return `{"result":"success","msg":"","queue_id":"${queueId}","last_event_id":-1}`;
}

/**
 * GET /api/v1/events: drops what the query acknowledges and calls `answer` with the pending
 * events, at once or on the next event. Returns a function that forgets the waiting poll
 * (its client went away).
 */
export function poll(query: string, answer: (body: string) => void): () => void {
  const params = parseQueryString(query);
  const queueId = String(params.queue_id);
  const queue = queues.get(queueId);
  if (!queue) {
    answer(`{"result":"error","msg":"Bad event queue ID: ${queueId}","code":"BAD_EVENT_QUEUE_ID"}`);
    return () => undefined;
  }
  const acknowledged = Number(params.last_event_id);
  while (queue.events.length > 0 && queue.events[0].id <= acknowledged) queue.events.shift();
  const send = () => answer(`{"result":"success","msg":"","events":[${queue.events.map((event) => event.text).join(',')}],"queue_id":"${queueId}"}`);
  if (queue.events.length > 0) {
    send();
    return () => undefined;
  }
  queue.waiting = send;
  return () => queue.waiting === send && (queue.waiting = undefined);
}

/** POST /api/v1/messages (a form body): a message event to every queue, waking their polls. */
export function sendMessage(body: string): string {
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
  return `{"result":"success","msg":"","id":${id}}`;
}

/** Prints the server's port on stdout (how bench/events.ts finds it), and exits normally on SIGTERM, so what `--cpu-prof` gathered is written. */
export function announce(port: number): void {
  process.once('SIGTERM', () => process.exit(0));
  process.stdout.write(`${port}\n`);
}

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

/** A message of a POST /api/v1/messages form body: its id, and its JSON text, serialised once. */
export function messageOf(body: string): { id: number; message: string } {
  const form = parseQueryString(body);
  const id = ++nextMessage;
  return { id, message: JSON.stringify({ id, type: 'stream', display_recipient: form.to, subject: form.topic, content: form.content, timestamp: Math.floor(Date.now() / 1000) }) };
}

/** The queues' ids (the durable floor stores a copy of each event per queue). */
export function queueIds(): string[] {
  return [...queues.keys()];
}

/** POST /api/v1/messages (a form body): a message event to every queue, waking their polls. */
export function sendMessage(body: string): string {
  return deliver(messageOf(body));
}

/** Appends the message's event to every queue (each copy differs only by its event id) and wakes their polls. */
export function deliver({ id, message }: { id: number; message: string }): string {
  for (const queue of queues.values()) {
    const eventId = ++queue.lastId;
    queue.events.push({ id: eventId, text: `{"id":${eventId},"type":"message","flags":[],"message":${message}}` });
    const waiting = queue.waiting;
    queue.waiting = undefined;
    waiting?.();
  }
  return `{"result":"success","msg":"","id":${id}}`;
}

/** Each queue's events not yet acknowledged, by queue id. */
export function pendingCounts(): Map<string, number> {
  return new Map([...queues].map(([queueId, queue]) => [queueId, queue.events.length]));
}

/**
 * Prints the server's port on stdout (how bench/events.ts finds it), and exits normally on
 * SIGTERM (after `beforeExit`), so what `--cpu-prof` gathered is written.
 */
export function announce(port: number, beforeExit: () => Promise<void> = () => Promise.resolve()): void {
  process.once('SIGTERM', () => void beforeExit().finally(() => process.exit(0)));
  process.stdout.write(`${port}\n`);
}

import { connect, type Socket } from 'node:net';
import { EventQueueClient, Factory, TEST_ROOT_HOST, TestSystem, expectSuccess, type TestUser } from '@teamchat/testing';
import { plainPoll } from '../src/events/poll-sockets';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * One client connection speaking HTTP/1.1 byte for byte: requests written exactly as given
 * (several at once, or a head in pieces), answers read in order.
 */
class RawConnection {
  private readonly socket: Socket;
  private received = Buffer.alloc(0);
  private wake?: () => void;
  ended = false;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.wake?.();
    });
    this.socket.on('end', () => {
      this.ended = true;
      this.wake?.();
    });
    this.socket.on('error', () => undefined);
  }

  write(text: string): void {
    this.socket.write(text);
  }

  close(): void {
    this.socket.destroy();
  }

  /** Sends the client's last byte (a half-close), the connection left open for the answers. */
  halfClose(): void {
    this.socket.end();
  }

  /** The next answer, its body parsed as JSON. */
  async answer(ms = 10_000): Promise<Answer> {
    const { text, ...answer } = await this.answerText(ms);
    return { ...answer, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  /** The next answer (status line, headers, a Content-Length body), within `ms`. */
  async answerText(ms = 10_000): Promise<Omit<Answer, 'body'> & { text: string }> {
    const deadline = Date.now() + ms;
    for (;;) {
      const headEnd = this.received.indexOf('\r\n\r\n');
      if (headEnd >= 0) {
        const [statusLine, ...lines] = this.received.toString('latin1', 0, headEnd).split('\r\n');
        const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        const end = headEnd + 4 + Number(headers['content-length'] ?? 0);
        if (this.received.length >= end) {
          const text = this.received.toString('utf8', headEnd + 4, end);
          this.received = this.received.subarray(end);
          return { status: Number(statusLine.split(' ')[1]), headers, text };
        }
      }
      if (this.ended) throw new Error('the connection ended before an answer');
      if (Date.now() > deadline) throw new Error('no answer in time');
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 100);
      });
    }
  }

  /** Whether the server ends the connection within `ms`. */
  async endsWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.ended && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    return this.ended;
  }
}

/**
 * GET /events straight off the gateway's connections (PollSockets): a connection is served
 * poll after poll until its first request that is not a plain poll, which node:http then
 * serves (with everything the client had sent), and every answer is what node:http would give.
 */
describe('polls served off the socket', () => {
  let system: TestSystem;
  let factory: Factory;
  let alice: TestUser;
  let bob: TestUser;
  let host: string;
  let channel: string;
  const connections: RawConnection[] = [];

  const open = () => {
    const connection = new RawConnection(system.ports.gateway);
    connections.push(connection);
    return connection;
  };
  const basic = (user: TestUser) => `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`;
  const pollHead = (queue: EventQueueClient, lastEventId: number, extra = '', query = '') =>
    `GET /api/v1/events?queue_id=${queue.queueId}&last_event_id=${lastEventId}${query} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${basic(alice)}\r\n${extra}\r\n`;
  const sendMessage = async (content: string) =>
    expectSuccess(await system.api.post<{ id: number }>('/messages', { type: 'stream', to: channel, topic: 'sockets', content }, { auth: bob, subdomain: host.split('.')[0] })).id;
  const register = () => EventQueueClient.register(system.api, { auth: alice, subdomain: host.split('.')[0] }, { event_types: JSON.stringify(['message']) });
  /**
   * How many connections the poll server opened and never handed to node:http: any connection
   * but a raw one that only polls (the test's other requests, this read's own) is handed over
   * at its first request.
   */
  const keptConnections = async () => {
    const connection = open();
    connection.write(`GET /metrics HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    const { text } = await connection.answerText();
    connection.close();
    const count = (outcome: string) => Number(new RegExp(`^event_poll_connections_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return count('opened') - count('handed_over');
  };
  const messagesOf = (answer: Answer) => (answer.body.events as { type: string; message?: { id: number } }[]).filter((event) => event.type === 'message').map((event) => event.message!.id);

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const realm = await factory.organization();
    host = `${realm.subdomain}.${TEST_ROOT_HOST}`;
    alice = await factory.user(realm);
    bob = await factory.user(realm);
    channel = (await factory.channel(realm, { name: 'sockets', subscribers: [alice, bob] })).name;
  });
  afterEach(() => {
    for (const connection of connections.splice(0)) connection.close();
  });
  afterAll(() => system?.stop());

  it('serves poll after poll on one connection, each waiting for its events, with the answer node:http would give', async () => {
    const queue = await register();
    const before = await keptConnections();
    const connection = open();
    connection.write(pollHead(queue, -1));
    const sent = await sendMessage('first');
    const first = await connection.answer();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ result: 'success', msg: '', queue_id: queue.queueId });
    expect(messagesOf(first)).toEqual([sent]);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.headers.connection).toBe('keep-alive');
    expect(first.headers.date).toBe(new Date(Date.parse(first.headers.date)).toUTCString());
    // The next poll acknowledges the first answer's event and waits for the next.
    const firstId = (first.body.events as { id: number }[])[0].id;
    connection.write(pollHead(queue, firstId));
    const next = await sendMessage('second');
    const second = await connection.answer();
    expect(messagesOf(second)).toEqual([next]);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    // Served off the socket: the polls' connection was never handed to node:http.
    expect((await keptConnections()) - before).toBe(1);
  });

  it('hands the connection to node:http at its first request that is not a poll, with the bytes sent after it, and serves what follows there', async () => {
    const queue = await register();
    const before = await keptConnections();
    const connection = open();
    connection.write(pollHead(queue, -1, '', '&dont_block=true'));
    expect((await connection.answer()).body.result).toBe('success');
    expect((await keptConnections()) - before).toBe(1);
    // A request for another route, and a poll right behind it in the same write (pipelined).
    connection.write(`GET /api/v1/users/me HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${basic(alice)}\r\n\r\n${pollHead(queue, -1, '', '&dont_block=true')}`);
    const me = await connection.answer();
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ result: 'success', user_id: alice.id });
    const poll = await connection.answer();
    expect(poll.body).toMatchObject({ result: 'success', events: [], queue_id: queue.queueId });
    // node:http serves the connection's polls from now on.
    connection.write(pollHead(queue, -1));
    const sent = await sendMessage('after the hand-over');
    expect(messagesOf(await connection.answer())).toEqual([sent]);
    // Handed over at the request for another route.
    expect((await keptConnections()) - before).toBe(0);
  });

  it('reads a head sent in pieces, and a poll sent while another waits once that one is answered', async () => {
    const queue = await register();
    const connection = open();
    const head = pollHead(queue, -1);
    for (const piece of [head.slice(0, 7), head.slice(7, 40), head.slice(40, -1)]) {
      connection.write(piece);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    connection.write(head.slice(-1));
    // A second poll arrives while the first still waits: it is read only after the first is answered.
    connection.write(pollHead(queue, -1, '', '&dont_block=true'));
    const sent = await sendMessage('pieces');
    const first = await connection.answer();
    expect(messagesOf(first)).toEqual([sent]);
    const second = await connection.answer();
    expect(messagesOf(second)).toEqual([sent]);
  });

  it.each([
    ['a body (Content-Length)', 'Content-Length: 5\r\n', 'hello'],
    ['a chunked body', 'Transfer-Encoding: chunked\r\n', '5\r\nhello\r\n0\r\n\r\n'],
    ['HTTP/1.0', '', ''],
  ])('leaves a poll with %s to node:http, which answers it as any poll', async (_, headers, body) => {
    const queue = await register();
    const connection = open();
    const head = pollHead(queue, -1, headers, '&dont_block=true');
    connection.write((body === '' && headers === '' ? head.replace('HTTP/1.1', 'HTTP/1.0') : head) + body);
    const answer = await connection.answer();
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ result: 'success', events: [], queue_id: queue.queueId });
  });

  it('leaves a malformed or oversized head to node:http, which refuses it with the error envelope', async () => {
    const queue = await register();
    const malformed = open();
    malformed.write(pollHead(queue, -1, 'Not a header\r\n'));
    const refused = await malformed.answer();
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    const oversized = open();
    oversized.write(pollHead(queue, -1, `X-Filler: ${'a'.repeat(20_000)}\r\n`));
    const tooLarge = await oversized.answer();
    expect(tooLarge.status).toBe(431);
    expect(tooLarge.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    const duplicated = open();
    duplicated.write(pollHead(queue, -1, `Authorization: ${basic(bob)}\r\n`, '&dont_block=true'));
    // Two Authorization headers: node:http's reading (the first) decides, as for any request.
    expect((await duplicated.answer()).body).toMatchObject({ result: 'success', queue_id: queue.queueId });
  });

  it('answers refusals on the socket as node:http would: no credentials, a wrong key, a session-less /json poll, a bad queue', async () => {
    const queue = await register();
    const connection = open();
    connection.write(`GET /api/v1/events?queue_id=${queue.queueId}&last_event_id=-1 HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    const anonymous = await connection.answer();
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
    expect(anonymous.headers['www-authenticate']).toBe('Basic realm="zulip"');
    connection.write(`GET /api/v1/events?queue_id=${queue.queueId}&last_event_id=-1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${basic({ ...alice, apiKey: 'wrong' })}\r\n\r\n`);
    expect((await connection.answer()).status).toBe(401);
    connection.write(`GET /json/events?queue_id=${queue.queueId}&last_event_id=-1 HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    const sessionless = await connection.answer();
    expect(sessionless.status).toBe(401);
    expect(sessionless.headers['www-authenticate']).toBe('Session realm="zulip"');
    connection.write(pollHead({ queueId: 'no-such-queue' } as EventQueueClient, -1));
    const bad = await connection.answer();
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ result: 'error', code: 'BAD_EVENT_QUEUE_ID', queue_id: 'no-such-queue' });
    expect(bad.headers.connection).toBe('keep-alive');
  });

  it('closes the connection after the answer when the client asks (Connection: close)', async () => {
    const queue = await register();
    const connection = open();
    connection.write(pollHead(queue, -1, 'Connection: close\r\n', '&dont_block=true'));
    const answer = await connection.answer();
    expect(answer.body.result).toBe('success');
    expect(answer.headers.connection).toBe('close');
    expect(await connection.endsWithin(2000)).toBe(true);
  });

  it('answers all a client sent before it half-closed, then ends the connection', async () => {
    const queue = await register();
    const connection = open();
    connection.write(pollHead(queue, -1, '', '&dont_block=true') + pollHead(queue, -1, '', '&dont_block=true'));
    connection.halfClose();
    expect((await connection.answer()).body).toMatchObject({ result: 'success', queue_id: queue.queueId });
    expect((await connection.answer()).body).toMatchObject({ result: 'success', queue_id: queue.queueId });
    expect(await connection.endsWithin(2000)).toBe(true);
  });

  it('loses nothing when a client goes away during its poll: the next poll, on another connection, gets the event', async () => {
    const queue = await register();
    const gone = open();
    gone.write(pollHead(queue, -1));
    await new Promise((resolve) => setTimeout(resolve, 200));
    gone.close();
    const sent = await sendMessage('while away');
    const again = open();
    again.write(pollHead(queue, -1));
    expect(messagesOf(await again.answer())).toEqual([sent]);
  });

  // Last: it stops the gateway.
  it('lets the gateway stop at once with connections it holds, idle or polling, ending each after its answer', async () => {
    const queue = await register();
    const idle = open();
    idle.write(pollHead(queue, -1, '', '&dont_block=true'));
    await idle.answer();
    const waiting = open();
    waiting.write(pollHead(queue, -1));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    await system.stopService('gateway');
    // The waiting poll is answered (with nothing) and its connection ended; the idle one is closed.
    const answer = await waiting.answer();
    expect(answer.body).toMatchObject({ result: 'success', events: [] });
    expect(await idle.endsWithin(1000)).toBe(true);
    expect(await waiting.endsWithin(1000)).toBe(true);
    // Well before the keep-alive timeout (65 s) that would otherwise hold the server open.
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('plainPoll', () => {
  const head = (lines: string[]) => ['GET /api/v1/events?queue_id=q&last_event_id=1 HTTP/1.1', ...lines].join('\r\n');

  it('reads a plain poll: the target, its headers by lower-case name with their spaces trimmed, and keep-alive', () => {
    expect(plainPoll(head(['Host: a.test', 'Authorization:  Basic eA== \t', 'Content-Length: 0']))).toEqual({
      url: '/api/v1/events?queue_id=q&last_event_id=1',
      headers: { host: 'a.test', authorization: 'Basic eA==', 'content-length': '0' },
      keepAlive: true,
    });
    expect(plainPoll('GET /json/events HTTP/1.1\r\nHost: a.test')).toEqual({ url: '/json/events', headers: { host: 'a.test' }, keepAlive: true });
    expect(plainPoll(head(['Host: a.test', 'Connection: Keep-Alive, close']))?.keepAlive).toBe(false);
  });

  it.each([
    ['another route', 'GET /api/v1/users HTTP/1.1\r\nHost: a.test'],
    ['another method', 'POST /api/v1/events HTTP/1.1\r\nHost: a.test'],
    ['a path that only starts like it', 'GET /api/v1/eventsx HTTP/1.1\r\nHost: a.test'],
    ['HTTP/1.0', 'GET /api/v1/events HTTP/1.0\r\nHost: a.test'],
    ['a target with a space or a control character', 'GET /api/v1/events?a=\x01 HTTP/1.1\r\nHost: a.test'],
    ['a body', head(['Host: a.test', 'Content-Length: 3'])],
    ['a chunked body', head(['Host: a.test', 'Transfer-Encoding: chunked'])],
    ['Expect', head(['Host: a.test', 'Expect: 100-continue'])],
    ['an upgrade', head(['Host: a.test', 'Connection: Upgrade'])],
    ['a header given twice', head(['Host: a.test', 'host: b.test'])],
    ['a malformed header line', head(['Host: a.test', 'Not a header'])],
    ['a folded header line', head(['Host: a.test', ' continued'])],
    ['a control character in a value', head(['Host: a.test', 'X-A: b\x00c'])],
    ['no Host', head(['Authorization: Basic eA=='])],
    ['no headers at all', 'GET /api/v1/events HTTP/1.1'],
  ])('leaves %s to node:http', (_, text) => {
    expect(plainPoll(text)).toBeUndefined();
  });
});

import { MessagingEvents, eventStreamName } from '@teamchat/contracts';
import { DiscardPolicy, connect } from 'nats';
import { EventQueueClient, Factory, TestSystem, expectSuccess, type EventRecorder, type TestUser, refusingEventRows } from '@teamchat/testing';

const MESSAGE_SENT = 'event.messaging.message_sent.v1';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The transactional outbox (issue 29): a send writes its events with the message, its writer
 * publishes and deletes them, and the relays publish what a writer left behind, once.
 * Fresh rows wait OUTBOX_GRACE_MS (a minute here) for their writer unless a NOTIFY wakes the
 * relays, so each test below sees only the path it means to. Changes other than sends write
 * their events in their own transaction: made to fail on its event row, a change is not stored.
 */
describe('the event outbox', () => {
  let system: TestSystem;
  let events: EventRecorder;
  let sender: TestUser, reader: TestUser;
  let subdomain: string;
  let realmId: number;
  let channelId: number;

  beforeAll(async () => {
    system = await TestSystem.start({ env: { OUTBOX_GRACE_MS: '60000', OUTBOX_SWEEP_MS: '200' } });
    events = await system.recordEvents();
    const factory = new Factory(system.db);
    const realm = await factory.organization();
    subdomain = realm.subdomain;
    realmId = realm.id;
    sender = await factory.user(realm, { fullName: 'Sender' });
    reader = await factory.user(realm, { fullName: 'Reader' });
    channelId = (await factory.channel(realm, { name: 'outbox', subscribers: [sender, reader] })).id;
  });
  afterAll(() => system?.stop());

  const outboxRows = () => system.db.eventOutbox.count();
  const until = async (condition: () => Promise<boolean>, what: string, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await sleep(50);
    }
  };
  const send = async (content: string) =>
    expectSuccess(
      await system.api.post<{ id: number }>('/messages', { type: 'stream', to: channelId, topic: 'outbox', content }, { auth: sender, subdomain }),
    ).id;
  /** The messages a queue got, but for the template's (whose own event may reach a queue made just after its send). */
  const messageIds = (queue: EventQueueClient, template?: Record<string, unknown>) =>
    queue.received
      .filter((event) => event.type === 'message')
      .map((event) => (event.message as { id: number }).id)
      .filter((id) => id !== (template?.message as { id: number } | undefined)?.id);

  /** Polls until the queue has a message other than the template's. */
  const arrives = (queue: EventQueueClient, template: Record<string, unknown>, timeoutMs?: number) =>
    until(
      async () => {
        await queue.poll({ dontBlock: true });
        return messageIds(queue, template).length > 0;
      },
      'the queue got the message',
      timeoutMs,
    );
  /** The message_sent payload a send published, as a template for rows a writer left behind. */
  const publishedPayload = async (messageId: number) => {
    await until(async () => events.of(MESSAGE_SENT).some((p) => (p.message as { id: number }).id === messageId), 'the send was published');
    return events.of(MESSAGE_SENT).find((p) => (p.message as { id: number }).id === messageId)!;
  };
  /** An outbox row as a writer that died after its commit leaves it: written, never published. */
  const leftBehind = async (payload: Record<string, unknown>, options: { id?: bigint; ageSeconds?: number } = {}) => {
    const row = await system.db.eventOutbox.create({
      data: {
        ...(options.id !== undefined ? { id: options.id } : {}),
        subject: `${system.env.NATS_SUBJECT_PREFIX}${MessagingEvents.messageSent.subject}`,
        realmId,
        payload: JSON.stringify(payload),
        createdAt: new Date(Date.now() - (options.ageSeconds ?? 600) * 1000),
      },
    });
    return row.id;
  };
  /** A stored message with nobody told of it, and the event its send would have published. */
  const unannounced = async (template: Record<string, unknown>, content: string) => {
    const message = await system.db.message.create({
      data: { realmId, senderId: sender.id, streamId: channelId, topic: 'outbox', content, renderedContent: `<p>${content}</p>`, sendingClient: 'test' },
    });
    await system.db.userMessage.createMany({ data: [sender.id, reader.id].map((userId) => ({ userId, messageId: message.id, flags: 0 })) });
    return { id: message.id, payload: { ...template, message: { ...(template.message as object), id: message.id, content: `<p>${content}</p>` } } };
  };

  it('writes a send’s events with the message and deletes them once JetStream has them', async () => {
    const queue = await EventQueueClient.register(system.api, { auth: reader, subdomain }, { event_types: ['message'] });
    const id = await send('announced by its writer');
    await queue.waitFor('message');
    expect(messageIds(queue)).toEqual([id]);
    await until(async () => (await outboxRows()) === 0, 'the outbox is empty');
  });

  it('announces, once, a stored message whose writer died before publishing it', async () => {
    const template = await publishedPayload(await send('a template'));
    const queue = await EventQueueClient.register(system.api, { auth: reader, subdomain }, { event_types: ['message'] });
    const lost = await unannounced(template, 'stored, then the writer died');
    await leftBehind(lost.payload);
    await arrives(queue, template);
    await until(async () => (await outboxRows()) === 0, 'the relay deleted the row');
    await queue.settle(1000);
    expect(messageIds(queue, template)).toEqual([lost.id]);
  });

  it('drops a row published again under the same id (a writer that died after publishing, before deleting)', async () => {
    const template = await publishedPayload(await send('another template'));
    const queue = await EventQueueClient.register(system.api, { auth: reader, subdomain }, { event_types: ['message'] });
    const lost = await unannounced(template, 'published, then the writer died');
    const rowId = await leftBehind(lost.payload);
    await arrives(queue, template);
    await until(async () => (await outboxRows()) === 0, 'the relay deleted the row');
    // The same row again, as when the relay and the writer both send it: JetStream stores it once.
    await leftBehind(lost.payload, { id: rowId });
    await until(async () => (await outboxRows()) === 0, 'the relay deleted the row again');
    await queue.settle(1500);
    expect(messageIds(queue, template)).toEqual([lost.id]);
  });

  it('publishes a fresh row at once when a writer that could not publish sends NOTIFY', async () => {
    const template = await publishedPayload(await send('a third template'));
    const queue = await EventQueueClient.register(system.api, { auth: reader, subdomain }, { event_types: ['message'] });
    const lost = await unannounced(template, 'NATS refused its writer');
    await leftBehind(lost.payload, { ageSeconds: 0 });
    // Without the NOTIFY this row would wait out the minute's grace.
    await system.db.$executeRawUnsafe(`NOTIFY event_outbox`);
    await arrives(queue, template, 10_000);
    expect(messageIds(queue, template)).toEqual([lost.id]);
    await until(async () => (await outboxRows()) === 0, 'the relay deleted the row');
  });


  it('announces a send acknowledged after one left to the relays behind it, in order', async () => {
    // The stream holds at least this event, so a limit of what it holds now refuses the next.
    const template = await publishedPayload(await send('before the stream is full'));
    const queue = await EventQueueClient.register(system.api, { auth: reader, subdomain }, { event_types: ['message'] });
    const nats = await connect({ servers: system.env.NATS_URL });
    const manager = await nats.jetstreamManager();
    const stream = eventStreamName(system.env.NATS_SUBJECT_PREFIX);
    const config = (await manager.streams.info(stream)).config;
    let first: number;
    try {
      // A full stream that discards new messages refuses every publish, as JetStream between leaders does.
      const { messages } = (await manager.streams.info(stream)).state;
      await manager.streams.update(stream, { ...config, max_msgs: messages, discard: DiscardPolicy.New });
      // Its writer tries until the answer is due, then leaves the row to the relays and answers.
      first = await send('left to the relays');
      expect(await outboxRows()).toBeGreaterThan(0);
    } finally {
      await manager.streams.update(stream, config);
      await nats.close();
    }
    // JetStream takes events again: the relays' periodic sweep would only reach the row after the
    // minute's grace, so a send published on its own now would come first.
    const second = await send('acknowledged after it');
    await until(
      async () => {
        await queue.poll({ dontBlock: true });
        const got = messageIds(queue, template);
        return got.length >= 2 || (got.length === 1 && got[0] !== first);
      },
      'the queue got both messages, or the second first',
    );
    expect(messageIds(queue, template)).toEqual([first, second]);
    await until(async () => (await outboxRows()) === 0, 'the outbox is empty');
  });


  it('writes a reaction and its event in one transaction: refused the event’s row, the reaction is not stored either', async () => {
    const id = await send('react to this');
    const queue = await EventQueueClient.register(system.api, { auth: sender, subdomain }, { event_types: ['reaction'] });
    const react = () => system.api.post(`/messages/${id}/reactions`, { emoji_name: 'smile' }, { auth: reader, subdomain });
    const reactions = () => system.db.reaction.count({ where: { messageId: id } });

    const refused = await refusingEventRows(system.db, MessagingEvents.reactionChanged.subject, react);
    expect(refused.body).toMatchObject({ result: 'error' });
    expect(await reactions()).toBe(0);
    await queue.settle(1000);
    expect(queue.received.filter((event) => event.type === 'reaction')).toEqual([]);

    // The same request, the table as it was: stored, announced once, the row gone.
    expectSuccess(await react());
    await queue.waitFor('reaction');
    expect(await reactions()).toBe(1);
    await queue.settle(1000);
    expect(queue.received.filter((event) => event.type === 'reaction')).toEqual([
      expect.objectContaining({ op: 'add', message_id: id, user_id: reader.id, emoji_name: 'smile' }),
    ]);
    await until(async () => (await outboxRows()) === 0, 'the writer deleted the row');
  });

  it('writes a subscription change and its event in one Prisma transaction (the cold paths): refused the row, nothing changes', async () => {
    const queue = await EventQueueClient.register(system.api, { auth: reader, subdomain }, { event_types: ['subscription'] });
    const recolor = (color: string) =>
      system.api.post(
        '/users/me/subscriptions/properties',
        { subscription_data: JSON.stringify([{ stream_id: channelId, property: 'color', value: color }]) },
        { auth: reader, subdomain },
      );
    const color = async () => (await system.db.subscription.findFirstOrThrow({ where: { userId: reader.id, streamId: channelId } })).color;
    const before = await color();

    const refused = await refusingEventRows(system.db, MessagingEvents.subscriptionChanged.subject, () => recolor('#123456'));
    expect(refused.body).toMatchObject({ result: 'error' });
    expect(await color()).toBe(before);
    await queue.settle(1000);
    expect(queue.received.filter((event) => event.type === 'subscription')).toEqual([]);

    expectSuccess(await recolor('#123456'));
    await queue.waitFor('subscription');
    expect(await color()).toBe('#123456');
    await queue.settle(1000);
    expect(queue.received.filter((event) => event.type === 'subscription')).toEqual([
      expect.objectContaining({ op: 'update', stream_id: channelId, property: 'color', value: '#123456' }),
    ]);
    await until(async () => (await outboxRows()) === 0, 'the writer deleted the row');
  });

  it('writes nothing to the outbox for a send that fails', async () => {
    const before = await system.db.message.count();
    const res = await system.api.post('/messages', { type: 'stream', to: 999999, topic: 'outbox', content: 'nowhere' }, { auth: sender, subdomain });
    expect(res.status).toBe(400);
    expect(await outboxRows()).toBe(0);
    expect(await system.db.message.count()).toBe(before);
  });
});

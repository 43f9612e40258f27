import { documentedExample } from './world';

documentedExample('register-queue', async (world) => {
  // Every parameter at its documented example; then the python client's own call (event types only).
  const all = await world.succeeds<{ queue_id: string; last_event_id: number }>('register-queue', {
    params: world.operation('register-queue').examples as Record<string, never>,
  });
  expect(all.queue_id).toEqual(expect.any(String));
  const some = await world.succeeds<Record<string, unknown>>('register-queue', { params: { event_types: ['message', 'realm_emoji'] } });
  expect(some).toHaveProperty('realm_emoji');
  expect(some).not.toHaveProperty('subscriptions');
});

documentedExample('get-events', async (world) => {
  const { queue_id } = await world.succeeds<{ queue_id: string }>('register-queue', { params: { event_types: ['message'] } });
  const sent = await world.system.api.post<{ id: number }>(
    '/messages',
    { type: 'stream', to: 'Verona', topic: 'events', content: 'An event for the queue' },
    { auth: world.hamlet, subdomain: world.realm.subdomain },
  );
  expect(sent.status).toBe(200);
  const { events } = await world.succeeds<{ events: { type: string; message?: { id: number } }[] }>('get-events', {
    params: { queue_id, last_event_id: -1 },
  });
  expect(events.map((event) => event.message?.id)).toContain(sent.body.id);
  // A queue that is not there: Zulip's BAD_EVENT_QUEUE_ID, as documented.
  await world.fails('get-events', { params: { queue_id: world.example('get-events', 'queue_id'), last_event_id: -1, dont_block: true } }, 400, 'BAD_EVENT_QUEUE_ID');
});

documentedExample('delete-queue', async (world) => {
  const { queue_id } = await world.succeeds<{ queue_id: string }>('register-queue', { params: { event_types: ['message'] } });
  await world.succeeds('delete-queue', { params: { queue_id } });
  // Deleted, it is the documented error.
  await world.fails('delete-queue', { params: { queue_id } }, 400, 'BAD_EVENT_QUEUE_ID');
});

documentedExample('rest-error-handling', async (world) => {
  // The common errors every endpoint answers with, as the page documents them: a missing
  // argument (400), bad credentials (401).
  const missing = await world.system.api.post('/messages', { type: 'stream', to: 'Verona', topic: 'x' }, { auth: world.iago, subdomain: world.realm.subdomain });
  world.expectDocumented('rest-error-handling', missing, 400);
  expect(missing.body).toMatchObject({ result: 'error', code: 'REQUEST_VARIABLE_MISSING', var_name: 'content' });
  const unauthorized = await world.system.api.get('/users/me', {}, { auth: { email: 'iago@zulip.com', apiKey: 'not-the-key' }, subdomain: world.realm.subdomain });
  world.expectDocumented('rest-error-handling', unauthorized, 401);
  expect(unauthorized.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
});

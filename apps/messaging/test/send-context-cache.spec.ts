import { Factory, TestSystem, expectError, expectSuccess, type EventRecorder, type TestUser } from '@teamchat/testing';

/**
 * Messaging keeps each channel's send context (the channel, the sender's subscription and
 * profile, the recipients) for SEND_CONTEXT_CACHE_SECONDS. Every change made through the API
 * must show in the very next send all the same: the change's event empties the cache before
 * any later command is taken. The other suites run with the cache off, since their factories
 * change the database behind the services' backs.
 */
describe('the send-context cache', () => {
  let system: TestSystem;
  let factory: Factory;
  let sub: string;
  let admin: TestUser, member: TestUser, newcomer: TestUser, leaver: TestUser;
  let room: { id: number; name: string };
  let realm: { id: number };
  let counter = 0;
  let events: EventRecorder;

  const as = (user: TestUser) => ({ auth: user, subdomain: sub });
  const send = (user: TestUser, to: string | number = room.name) =>
    system.api.post<{ id: number }>('/messages', { type: 'stream', to: String(to), topic: 'cached', content: `message ${counter++}` } as never, as(user));
  const sent = async (user: TestUser, to?: string | number) => expectSuccess(await send(user, to)).id;
  const recipientsOf = async (id: number) =>
    (await system.db.userMessage.findMany({ where: { messageId: id }, select: { userId: true } })).map((row) => row.userId).sort((a, b) => a - b);
  const ids = (...users: TestUser[]) => users.map((user) => user.id).sort((a, b) => a - b);

  beforeAll(async () => {
    system = await TestSystem.start({ env: { SEND_CONTEXT_CACHE_SECONDS: '60' } });
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'send-cache' });
    ({ admin, member } = org);
    sub = org.realm.subdomain;
    realm = org.realm;
    newcomer = await factory.user(org.realm, { fullName: 'New Comer' });
    leaver = await factory.user(org.realm, { fullName: 'Lea Ver' });
    room = await factory.channel(org.realm, { name: 'room', subscribers: [member, leaver], inviteOnly: true });
    events = await system.recordEvents();
  });
  afterAll(() => system.stop());

  it('keeps a context: a change made behind the services\' backs does not show within its lifetime', async () => {
    expect(await recipientsOf(await sent(member))).toEqual(ids(member, leaver));
    await factory.subscribe(newcomer, room);
    expect(await recipientsOf(await sent(member))).toEqual(ids(member, leaver));
    await system.db.subscription.deleteMany({ where: { userId: newcomer.id, streamId: room.id } });
  });

  it('sends to a new subscriber at once after subscribing through the API', async () => {
    await sent(member);
    expectSuccess(
      await system.api.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: room.name }]), principals: JSON.stringify([newcomer.id]) } as never, as(admin)),
    );
    expect(await recipientsOf(await sent(member))).toEqual(ids(member, leaver, newcomer));
  });

  it('refuses a private channel at once to a sender who unsubscribed, and stops sending to them', async () => {
    await sent(leaver);
    expectSuccess(await system.api.delete('/users/me/subscriptions', { subscriptions: JSON.stringify([room.name]) } as never, as(leaver)));
    expectError(await send(leaver), 400, 'BAD_REQUEST', `Not authorized to send to channel '${room.name}'`);
    expect(await recipientsOf(await sent(member))).not.toContain(leaver.id);
  });

  it('shows the sender\'s new name at once after a change through the API', async () => {
    await sent(newcomer);
    expectSuccess(await system.api.patch('/settings', { full_name: 'Renamed Comer' } as never, as(newcomer)));
    events.clear();
    const id = await sent(newcomer);
    // What the recipients' clients are told comes from the send context.
    const told = await events.waitFor<{ message: { id: number; sender_full_name: string } }>('event.messaging.message_sent.v1', 1);
    expect(told.find((event) => event.message.id === id)?.message.sender_full_name).toBe('Renamed Comer');
  });

  it('stops sending to a deactivated user at once', async () => {
    await sent(member);
    expectSuccess(await system.api.delete(`/users/${newcomer.id}`, {}, as(admin)));
    expect(await recipientsOf(await sent(member))).toEqual(ids(member));
  });

  it('applies a new posting permission at once', async () => {
    await sent(member, room.id);
    const nobody = await factory.systemGroupId(realm, 'role:nobody');
    expectSuccess(await system.api.patch(`/streams/${room.id}`, { can_send_message_group: JSON.stringify({ new: nobody }) } as never, as(admin)));
    expectError(await send(member, room.id), 400, 'BAD_REQUEST', 'You do not have permission to post in this channel.');
  });

  it('refuses an archived channel at once', async () => {
    const other = await factory.channel(realm, { name: 'soon gone', subscribers: [member] });
    await sent(member, other.id);
    expectSuccess(await system.api.delete(`/streams/${other.id}`, {}, as(admin)));
    expectError(await send(member, other.id), 400, 'STREAM_DOES_NOT_EXIST', `Channel with ID '${other.id}' does not exist`, { stream_id: other.id });
  });
});

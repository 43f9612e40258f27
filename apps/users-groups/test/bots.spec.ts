import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClientEvent } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import {
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type Credentials,
  type EventRecorder,
  type TestUser,
} from '@teamchat/testing';

const REALM_BOT = 'event.users-groups.realm_bot_changed.v1';
const REALM_USER = 'event.users-groups.realm_user_changed.v1';

interface Created {
  user_id: number;
  api_key: string;
  avatar_url: string;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
}

/** A stand-in for a bot's server: records what it is sent and answers as the test says. */
class BotServer {
  readonly requests: { headers: IncomingMessage['headers']; body: string }[] = [];
  answer: (res: ServerResponse) => void = (res) => res.end('{}');
  private server!: Server;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        this.answer(res);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/bot`;
  }

  json(body: unknown, status = 200): void {
    this.answer = (res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const until = async <T>(read: () => Promise<T | undefined | null>, timeoutMs = 10_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== null) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe('bots', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let botServer: BotServer;
  let subdomain: string;
  let host: string;
  let realmId: number;
  let member: TestUser, other: TestUser, guest: TestUser, admin: TestUser, owner: TestUser, deactivated: TestUser;
  let outsider: TestUser, outsiderSubdomain: string, foreignBot: TestUser;
  let general: { id: number; name: string }, secret: { id: number; name: string };

  const as = (user: Credentials, sub = subdomain) => ({ auth: user, subdomain: sub });
  const addBot = (user: Credentials, form: Record<string, unknown>, sub = subdomain) =>
    system.api.post<Created>('/bots', form as never, as(user, sub));
  const patchBot = (user: Credentials, id: number | string, form: Record<string, unknown>) =>
    system.api.patch<Record<string, unknown>>(`/bots/${id}`, form as never, as(user));
  const botCredentials = async (userId: number): Promise<Credentials> => {
    const row = await system.db.user.findUniqueOrThrow({ where: { id: userId }, include: { apiKey: true } });
    return { email: row.deliveryEmail, apiKey: row.apiKey!.key };
  };
  let counter = 0;
  /** A bot made through the API, its events consumed. */
  const makeBot = async (user: TestUser, form: Record<string, unknown> = {}) => {
    counter += 1;
    const body = expectSuccess(await addBot(user, { full_name: `Helper ${counter}`, short_name: `helper${counter}`, ...form }));
    await events.waitFor(REALM_BOT);
    events.clear();
    return { id: body.user_id, ...(await botCredentials(body.user_id)) };
  };
  const userCount = () => system.db.user.count();
  const adminsAnd = (...ids: number[]) => [...new Set([admin.id, owner.id, ...ids])].sort((a, b) => a - b);

  beforeAll(async () => {
    botServer = new BotServer();
    await botServer.start();
    system = await TestSystem.start({ env: { OUTGOING_WEBHOOK_TIMEOUT_MS: '500', OUTGOING_WEBHOOK_ATTEMPTS: '3', OUTGOING_WEBHOOK_BACKOFF_MS: '100' } });
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'bots' });
    ({ member, guest, admin, owner } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    host = `${subdomain}.testserver.local`;
    other = await factory.user(org.realm, { fullName: 'Other Member' });
    deactivated = await factory.user(org.realm, { fullName: 'Gone Member', isActive: false });
    general = await factory.channel(org.realm, { name: 'general', subscribers: [member, other, admin] });
    secret = await factory.channel(org.realm, { name: 'secret', inviteOnly: true, subscribers: [admin] });
    const elsewhere = await factory.organization({ subdomain: 'elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    foreignBot = await factory.user(elsewhere, { isBot: true, botOwnerId: outsider.id, fullName: 'Foreign Bot' });
    events = await system.recordEvents();
  });
  afterAll(async () => {
    await system.stop();
    await botServer.stop();
  });
  beforeEach(() => events.clear());

  describe('POST /bots', () => {
    it('creates a generic bot owned by the caller, announced to everyone and to its administrators', async () => {
      const before = await userCount();
      const res = await addBot(member, { full_name: 'Weather Bot', short_name: 'weather' });
      const body = expectSuccess(res);
      expectMatchesOpenApi('post', '/bots', body);
      expect(body).toEqual({
        result: 'success',
        msg: '',
        user_id: expect.any(Number),
        api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
        avatar_url: expect.any(String),
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
      });
      expect(await userCount()).toBe(before + 1);
      const row = await system.db.user.findUniqueOrThrow({ where: { id: body.user_id }, include: { apiKey: true } });
      expect(row).toMatchObject({ deliveryEmail: `weather-bot@${host}`, fullName: 'Weather Bot', isBot: true, botType: 1, botOwnerId: member.id, role: Role.MEMBER });
      expect(row.apiKey!.key).toBe(body.api_key);

      const [added] = await events.waitFor<ClientEvent>(REALM_BOT);
      expect(added).toEqual({
        realmId,
        users: adminsAnd(member.id),
        event: {
          type: 'realm_bot',
          op: 'add',
          bot: {
            email: `weather-bot@${host}`,
            user_id: body.user_id,
            full_name: 'Weather Bot',
            bot_type: 1,
            is_active: true,
            api_key: body.api_key,
            default_sending_stream: null,
            default_events_register_stream: null,
            default_all_public_streams: false,
            avatar_url: body.avatar_url,
            services: [],
            owner_id: member.id,
          },
        },
      });
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...added.event }] });
      const people = await events.waitFor<ClientEvent>(REALM_USER);
      expect(people[0].event).toMatchObject({ type: 'realm_user', op: 'add', person: { user_id: body.user_id, is_bot: true, bot_type: 1, bot_owner_id: member.id } });
      expect(people.flatMap((event) => event.users).sort((a, b) => a - b)).toContain(other.id);

      // The bot authenticates with its own key.
      const me = expectSuccess(await system.api.get('/users/me', {}, as({ email: `weather-bot@${host}`, apiKey: body.api_key })));
      expect(me).toMatchObject({ user_id: body.user_id, is_bot: true });
    });

    it('creates an outgoing webhook bot with its service and default channels, shown in realm_bots', async () => {
      const res = await addBot(member, {
        full_name: 'Hook Bot',
        short_name: 'hook',
        bot_type: 3,
        payload_url: JSON.stringify('https://bots.example.com/hook'),
        interface_type: 1,
        default_sending_stream: 'general',
        default_events_register_stream: 'general',
        default_all_public_streams: true,
      });
      const body = expectSuccess(res);
      expect(body).toMatchObject({ default_sending_stream: 'general', default_events_register_stream: 'general', default_all_public_streams: true });
      const services = await system.db.botService.findMany({ where: { userId: body.user_id } });
      expect(services).toEqual([{ id: expect.any(Number), userId: body.user_id, name: 'hook', baseUrl: 'https://bots.example.com/hook', token: expect.stringMatching(/^[A-Za-z0-9]{32}$/), interface: 1 }]);
      const [added] = await events.waitFor<ClientEvent>(REALM_BOT);
      expect((added.event.bot as Record<string, unknown>).services).toEqual([{ base_url: 'https://bots.example.com/hook', interface: 1, token: services[0].token }]);

      const state = expectSuccess(await system.api.post('/register', { fetch_event_types: JSON.stringify(['realm_bot']) }, as(member)));
      const listed = (state.realm_bots as Record<string, unknown>[]).find((bot) => bot.user_id === body.user_id);
      expect(listed).toMatchObject({ default_sending_stream: 'general', default_all_public_streams: true, bot_type: 3, owner_id: member.id, services: [{ base_url: 'https://bots.example.com/hook', interface: 1, token: services[0].token }] });
      // A member sees only their own bots there; an administrator every bot.
      expect((state.realm_bots as { owner_id: number }[]).every((bot) => bot.owner_id === member.id)).toBe(true);
      const adminState = expectSuccess(await system.api.post('/register', { fetch_event_types: JSON.stringify(['realm_bot']) }, as(admin)));
      expect((adminState.realm_bots as { user_id: number }[]).map((bot) => bot.user_id)).toContain(body.user_id);
    });

    it('sends realm_bot add to the owner alone when a default channel is private', async () => {
      const body = expectSuccess(await addBot(admin, { full_name: 'Secret Bot', short_name: 'secretive', default_sending_stream: 'secret' }));
      const [added] = await events.waitFor<ClientEvent>(REALM_BOT);
      expect(added.users).toEqual([admin.id]);
      expect(body.default_sending_stream).toBe('secret');
    });

    it.each([
      ['a blank short name', { short_name: '  ' }, 'Bad name or username'],
      ['a short name with a space', { short_name: 'two words' }, 'Bad name or username'],
      ['a blank full name', { full_name: ' ' }, 'Name too short!'],
      ['a full name with @', { full_name: 'Bad @ Name' }, 'Invalid characters in name!'],
      ['an embedded bot', { bot_type: 4 }, 'Embedded bots are not enabled.'],
      ['an unknown bot type', { bot_type: 9 }, 'Invalid bot type'],
      ['an unknown interface', { bot_type: 3, interface_type: 7 }, 'Invalid interface type'],
      ['a payload URL that is not one', { bot_type: 3, payload_url: JSON.stringify('not a url') }, 'payload_url is not a URL'],
      ['a private default channel the caller is not in', { default_sending_stream: 'secret' }, "Invalid channel name 'secret'"],
      ['an unknown default channel', { default_events_register_stream: 'nowhere' }, "Invalid channel name 'nowhere'"],
      ['an incoming webhook for an integration', { bot_type: 2, service_name: 'github' }, "Invalid integration 'github'."],
    ])('refuses %s and creates nothing', async (_what, form, message) => {
      const before = await userCount();
      expectError(await addBot(member, { full_name: 'Refused Bot', short_name: 'refused', ...form }), 400, 'BAD_REQUEST', message);
      expect(await userCount()).toBe(before);
      expect(await events.publishedByNow(REALM_BOT)).toEqual([]);
    });

    it('refuses an address or a name already in use', async () => {
      await makeBot(member, { full_name: 'Twin Bot', short_name: 'twin' });
      const before = await userCount();
      expectError(await addBot(other, { full_name: 'Another Twin', short_name: 'twin' }), 400, 'BAD_REQUEST', 'Username already in use');
      expectError(await addBot(other, { full_name: 'Twin Bot', short_name: 'twin2' }), 400, 'BAD_REQUEST', 'Name is already in use!');
      expectError(await addBot(other, { full_name: 'Other Member', short_name: 'twin3' }), 400, 'BAD_REQUEST', 'Name is already in use!');
      expect(await userCount()).toBe(before);
    });

    it('refuses guests, bots, and callers who are not admitted', async () => {
      const bot = await makeBot(member);
      expectError(await addBot(guest, { full_name: 'Guest Bot', short_name: 'guestbot' }), 400, 'BAD_REQUEST', 'Not allowed for guest users');
      expectError(await addBot(bot, { full_name: 'Bot Bot', short_name: 'botbot' }), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
      await expectCallersRefused((options) => system.api.post('/bots', { full_name: 'X Bot', short_name: 'xbot' }, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
    });
  });

  describe('GET /bots', () => {
    it("lists the caller's own active bots, oldest first, even for administrators", async () => {
      const first = await makeBot(other);
      const second = await makeBot(other);
      const gone = await makeBot(other);
      expectSuccess(await system.api.delete(`/bots/${gone.id}`, {}, as(other)));
      await makeBot(admin);
      const body = expectSuccess(await system.api.get<{ bots: Record<string, unknown>[] }>('/bots', {}, as(other)));
      expectMatchesOpenApi('get', '/bots', body);
      expect(body.bots.map((bot) => bot.username)).toEqual([first.email, second.email]);
      expect(body.bots[0]).toEqual({
        username: first.email,
        full_name: expect.any(String),
        api_key: first.apiKey,
        avatar_url: expect.any(String),
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
      });
      const adminBots = expectSuccess(await system.api.get<{ bots: { username: string }[] }>('/bots', {}, as(admin))).bots.map((bot) => bot.username);
      expect(adminBots).not.toContain(first.email);
      expectError(await system.api.get('/bots', {}, as(guest)), 400, 'BAD_REQUEST', 'Not allowed for guest users');
      await expectCallersRefused((options) => system.api.get('/bots', {}, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('PATCH /bots/{bot_id}', () => {
    it('renames a bot: realm_user update to everyone, realm_bot update to its administrators', async () => {
      const bot = await makeBot(member);
      const body = expectSuccess(await patchBot(member, bot.id, { full_name: 'Renamed Helper' }));
      expectMatchesOpenApi('patch', '/bots/{bot_id}', body);
      expect(body).toMatchObject({ full_name: 'Renamed Helper', default_sending_stream: null, default_all_public_streams: false, bot_owner: member.email });
      expect((await system.db.user.findUniqueOrThrow({ where: { id: bot.id } })).fullName).toBe('Renamed Helper');
      const [botEvent] = await events.waitFor<ClientEvent>(REALM_BOT);
      expect(botEvent).toEqual({ realmId, users: adminsAnd(member.id), event: { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, full_name: 'Renamed Helper' } } });
      const [userEvent] = await events.waitFor<ClientEvent>(REALM_USER);
      expect(userEvent.event).toEqual({ type: 'realm_user', op: 'update', person: { user_id: bot.id, full_name: 'Renamed Helper' } });
      expect(userEvent.users).toContain(other.id);
    });

    it('sets and clears default channels, and changes the outgoing service', async () => {
      const bot = await makeBot(member, { bot_type: 3, payload_url: JSON.stringify('https://a.example.com/') });
      expectSuccess(await patchBot(member, bot.id, { default_sending_stream: 'general' }));
      expect((await events.waitFor<ClientEvent>(REALM_BOT))[0].event.bot).toEqual({ user_id: bot.id, default_sending_stream: 'general' });
      events.clear();
      expectSuccess(await patchBot(member, bot.id, { default_sending_stream: '' }));
      expect((await events.waitFor<ClientEvent>(REALM_BOT))[0].event.bot).toEqual({ user_id: bot.id, default_sending_stream: null });
      events.clear();
      const body = expectSuccess(await patchBot(member, bot.id, { service_payload_url: JSON.stringify('https://b.example.com/'), service_interface: 2 }));
      expect(body).toMatchObject({ service_payload_url: 'https://b.example.com/', service_interface: 2 });
      const service = await system.db.botService.findFirstOrThrow({ where: { userId: bot.id } });
      expect(service).toMatchObject({ baseUrl: 'https://b.example.com/', interface: 2 });
      expect((await events.waitFor<ClientEvent>(REALM_BOT))[0].event.bot).toEqual({
        user_id: bot.id,
        services: [{ base_url: 'https://b.example.com/', interface: 2, token: service.token }],
      });
    });

    it('moves a bot to a new owner: delete to the old one, add to the new one, update to administrators', async () => {
      const bot = await makeBot(member);
      expectSuccess(await patchBot(member, bot.id, { bot_owner_id: other.id }));
      expect((await system.db.user.findUniqueOrThrow({ where: { id: bot.id } })).botOwnerId).toBe(other.id);
      const botEvents = await events.waitFor<ClientEvent>(REALM_BOT, 3);
      expect(botEvents.map((event) => [event.users, event.event.op])).toEqual([
        [[member.id], 'delete'],
        [[other.id], 'add'],
        [adminsAnd(), 'update'],
      ]);
      expect(botEvents[2].event.bot).toEqual({ user_id: bot.id, owner_id: other.id });
      const [userEvent] = await events.waitFor<ClientEvent>(REALM_USER);
      expect(userEvent.event).toEqual({ type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: other.id } });
      // The old owner no longer administers it.
      expectError(await patchBot(member, bot.id, { full_name: 'Mine Again' }), 400, 'BAD_REQUEST', 'Insufficient permission');
    });

    it('refuses what it may not do, and changes nothing', async () => {
      const bot = await makeBot(member);
      const before = await system.db.user.findUniqueOrThrow({ where: { id: bot.id } });
      expectError(await patchBot(other, bot.id, { full_name: 'Stolen' }), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectError(await patchBot(member, other.id, { full_name: 'Not A Bot' }), 400, 'BAD_REQUEST', 'No such bot');
      expectError(await patchBot(member, 999999999, { full_name: 'Nobody' }), 400, 'BAD_REQUEST', 'No such bot');
      expectError(await patchBot(outsider, bot.id, { full_name: 'Outsider' }), 401, 'UNAUTHORIZED', 'Account is not associated with this subdomain');
      expectError(await patchBot(member, foreignBot.id, { full_name: 'Foreign' }), 400, 'BAD_REQUEST', 'No such bot');
      expectError(await patchBot(member, bot.id, { role: Role.MODERATOR }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      expectError(await patchBot(admin, bot.id, { role: Role.OWNER }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
      expectError(await patchBot(member, bot.id, { role: 123 }), 400, 'BAD_REQUEST', 'Invalid role');
      expectError(await patchBot(member, bot.id, { bot_owner_id: 999999 }), 400, 'BAD_REQUEST', 'Failed to change owner, no such user');
      expectError(await patchBot(member, bot.id, { bot_owner_id: deactivated.id }), 400, 'BAD_REQUEST', 'Failed to change owner, user is deactivated');
      expectError(await patchBot(member, bot.id, { bot_owner_id: bot.id }), 400, 'BAD_REQUEST', "Failed to change owner, bots can't own other bots");
      // A later refusal leaves the earlier changes unmade.
      expectError(await patchBot(member, bot.id, { full_name: 'Half Done', default_sending_stream: 'secret' }), 400, 'BAD_REQUEST', "Invalid channel name 'secret'");
      expectError(await patchBot(member, bot.id, { full_name: 'Other Member' }), 400, 'BAD_REQUEST', 'Name is already in use!');
      expectError(await patchBot(member, bot.id, { service_payload_url: JSON.stringify('nope') }), 400, 'BAD_REQUEST', 'service_payload_url is not a URL');
      expect(await system.db.user.findUniqueOrThrow({ where: { id: bot.id } })).toEqual(before);
      expect(await events.publishedByNow(REALM_BOT)).toEqual([]);
      // An administrator may change another's bot, its role included.
      expectSuccess(await patchBot(admin, bot.id, { role: Role.MODERATOR }));
      expect((await system.db.user.findUniqueOrThrow({ where: { id: bot.id } })).role).toBe(Role.MODERATOR);
      await expectCallersRefused((options) => system.api.patch(`/bots/${bot.id}`, { full_name: 'X' }, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('the bot API key', () => {
    it('regenerates it: the old key is refused at once, its administrators get the new one', async () => {
      const bot = await makeBot(member);
      const res = await system.api.post<{ api_key: string }>(`/bots/${bot.id}/api_key/regenerate`, {}, as(member));
      const body = expectSuccess(res);
      expectMatchesOpenApi('post', '/bots/{bot_id}/api_key/regenerate', body);
      expect(body.api_key).not.toBe(bot.apiKey);
      expectError(await system.api.get('/users/me', {}, as(bot)), 401, 'UNAUTHORIZED', 'Invalid API key');
      expectSuccess(await system.api.get('/users/me', {}, as({ email: bot.email, apiKey: body.api_key })));
      const [event] = await events.waitFor<ClientEvent>(REALM_BOT);
      expect(event).toEqual({ realmId, users: adminsAnd(member.id), event: { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, api_key: body.api_key } } });
      expectError(await system.api.post(`/bots/${bot.id}/api_key/regenerate`, {}, as(other)), 400, 'BAD_REQUEST', 'Insufficient permission');
      expect((await botCredentials(bot.id)).apiKey).toBe(body.api_key);
      await expectCallersRefused((options) => system.api.post(`/bots/${bot.id}/api_key/regenerate`, {}, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('DELETE /bots/{bot_id} and reactivation', () => {
    it('deactivates a bot (its key refused) and an administrator reactivates it, each told to its administrators', async () => {
      const bot = await makeBot(member);
      expectError(await system.api.delete(`/bots/${bot.id}`, {}, as(other)), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectError(await system.api.delete(`/bots/${member.id}`, {}, as(member)), 400, 'BAD_REQUEST', 'No such bot');
      const body = expectSuccess(await system.api.delete(`/bots/${bot.id}`, {}, as(member)));
      expectMatchesOpenApi('delete', '/bots/{bot_id}', body);
      expect((await system.db.user.findUniqueOrThrow({ where: { id: bot.id } })).isActive).toBe(false);
      expectError(await system.api.get('/users/me', {}, as(bot)), 401, 'UNAUTHORIZED', 'Account is deactivated');
      const [off] = await events.waitFor<ClientEvent>(REALM_BOT);
      expect(off).toEqual({ realmId, users: adminsAnd(member.id), event: { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, is_active: false } } });
      expect((await events.waitFor<ClientEvent>(REALM_USER))[0].event).toEqual({ type: 'realm_user', op: 'update', person: { user_id: bot.id, is_active: false } });
      events.clear();

      expectSuccess(await system.api.post(`/users/${bot.id}/reactivate`, {}, as(admin)));
      const [on] = await events.waitFor<ClientEvent>(REALM_BOT);
      expect(on.event.bot).toEqual({ user_id: bot.id, is_active: true });
      expectSuccess(await system.api.get('/users/me', {}, as(bot)));
      await expectCallersRefused((options) => system.api.delete(`/bots/${bot.id}`, {}, options), { subdomain, member, outsider, deactivated });
    });

    it('refuses to reactivate a bot whose name an active account has taken meanwhile', async () => {
      const bot = await makeBot(member, { full_name: 'Phoenix Bot' });
      expectSuccess(await system.api.delete(`/bots/${bot.id}`, {}, as(member)));
      await makeBot(other, { full_name: 'Phoenix Bot' });
      expectError(
        await system.api.post(`/users/${bot.id}/reactivate`, {}, as(admin)),
        400,
        'BAD_REQUEST',
        'There is already an active bot named "Phoenix Bot" in this organization. To reactivate this bot, you must rename or deactivate the other one first.',
      );
      expect((await system.db.user.findUniqueOrThrow({ where: { id: bot.id } })).isActive).toBe(false);
    });
  });

  describe('incoming webhook bots', () => {
    it('may send messages and nothing else', async () => {
      const bot = await makeBot(member, { bot_type: 2 });
      const sent = expectSuccess(await system.api.post<{ id: number }>('/messages', { type: 'stream', to: String(general.id), topic: 'alerts', content: 'Build passed' }, as(bot)));
      expect((await system.db.message.findUniqueOrThrow({ where: { id: sent.id } })).senderId).toBe(bot.id);
      for (const res of [
        await system.api.get('/users/me', {}, as(bot)),
        await system.api.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 }, as(bot)),
        await system.api.post('/register', {}, as(bot)),
      ]) {
        expectError(res, 401, 'UNAUTHORIZED', 'This API is not available to incoming webhook bots.');
      }
    });
  });

  describe('outgoing webhooks', () => {
    let hook: { id: number; email: string; apiKey: string };
    let token: string;
    const hookName = 'Echo Hook';
    const send = (user: Credentials, form: Record<string, string>) => system.api.post<{ id: number }>('/messages', form, as(user));
    const repliesOf = (botId: number, afterId: number) =>
      system.db.message.findMany({ where: { senderId: botId, id: { gt: afterId } }, orderBy: { id: 'asc' } });

    beforeAll(async () => {
      hook = await makeBot(member, { full_name: hookName, short_name: 'echo', bot_type: 3, payload_url: JSON.stringify(botServer.url) });
      token = (await system.db.botService.findFirstOrThrow({ where: { userId: hook.id } })).token;
    });
    beforeEach(() => {
      botServer.requests.length = 0;
    });

    it('posts a channel mention to the service and sends its answer as the bot into the same topic', async () => {
      botServer.json({ content: 'pong' });
      const { id } = expectSuccess(await send(other, { type: 'stream', to: String(general.id), topic: 'ping test', content: `@**${hookName}** ping` }));
      const [reply] = await until(async () => {
        const found = await repliesOf(hook.id, id);
        return found.length ? found : undefined;
      });
      expect(reply).toMatchObject({ streamId: general.id, topic: 'ping test', content: 'pong', sendingClient: 'OutgoingWebhookResponse' });
      expect(botServer.requests).toHaveLength(1);
      const request = botServer.requests[0];
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/^ZulipOutgoingWebhook\//);
      const payload = JSON.parse(request.body) as Record<string, unknown>;
      expect(payload).toMatchObject({ data: `@**${hookName}** ping`, bot_email: hook.email, bot_full_name: hookName, token, trigger: 'mention' });
      expect(payload.message).toMatchObject({
        id,
        type: 'stream',
        stream_id: general.id,
        display_recipient: 'general',
        subject: 'ping test',
        content: `@**${hookName}** ping`,
        sender_id: other.id,
      });
      expect(String((payload.message as Record<string, unknown>).rendered_content)).toContain(`data-user-id="${hook.id}"`);
    });

    it('answers a direct message in the conversation; response_not_required sends nothing', async () => {
      botServer.json({ response_string: 'got it' });
      const first = expectSuccess(await send(other, { type: 'private', to: JSON.stringify([hook.id]), content: 'hello bot' }));
      const [reply] = await until(async () => {
        const found = await repliesOf(hook.id, first.id);
        return found.length ? found : undefined;
      });
      const asked = await system.db.message.findUniqueOrThrow({ where: { id: first.id } });
      expect(reply).toMatchObject({ dmGroupId: asked.dmGroupId, content: 'got it' });
      expect(JSON.parse(botServer.requests[0].body)).toMatchObject({ trigger: 'direct_message', data: 'hello bot' });

      botServer.requests.length = 0;
      botServer.json({ response_not_required: true, content: 'ignored' });
      const second = expectSuccess(await send(other, { type: 'private', to: JSON.stringify([hook.id]), content: 'quiet please' }));
      await until(async () => (botServer.requests.length === 1 ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await repliesOf(hook.id, second.id)).toEqual([]);
    });

    it('is not triggered by bots, silent mentions or messages that do not mention it', async () => {
      botServer.json({ content: 'should not happen' });
      const generic = await makeBot(member);
      expectSuccess(await send(generic, { type: 'stream', to: String(general.id), topic: 'quiet', content: `@**${hookName}** from a bot` }));
      expectSuccess(await send(other, { type: 'stream', to: String(general.id), topic: 'quiet', content: `@_**${hookName}** silently` }));
      expectSuccess(await send(other, { type: 'stream', to: String(general.id), topic: 'quiet', content: 'no mention at all' }));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(botServer.requests).toEqual([]);
    });

    it('says "Failure!" where it was asked and tells its owner when the service refuses', async () => {
      botServer.json({ error: 'broken' }, 500);
      const { id } = expectSuccess(await send(other, { type: 'stream', to: String(general.id), topic: 'errors', content: `@**${hookName}** fail` }));
      const replies = await until(async () => {
        const found = await repliesOf(hook.id, id);
        return found.length >= 2 ? found : undefined;
      });
      expect(replies[0]).toMatchObject({ streamId: general.id, topic: 'errors', content: 'Failure! Third party responded with 500' });
      const ownerDm = replies[1];
      expect(ownerDm.streamId).toBeNull();
      expect(ownerDm.content).toBe(
        `[A message](http://${host}/#narrow/channel/${general.id}-general/topic/errors/near/${id}) to your bot @_**${hookName}** triggered an outgoing webhook.\n` +
          'The webhook got a response with status code *500*.\n' +
          "The response contains the following payload:\n```\nb'{\"error\":\"broken\"}'\n```",
      );
      const group = await system.db.directMessageGroup.findUniqueOrThrow({ where: { id: ownerDm.dmGroupId! } });
      expect([...group.memberIds].sort((a, b) => a - b)).toEqual([member.id, hook.id].sort((a, b) => a - b));
      expect(botServer.requests).toHaveLength(1);
    });

    it('retries a service that times out, then says the bot is unavailable and tells its owner', async () => {
      botServer.answer = (res) => setTimeout(() => res.end('{"content":"too late"}'), 1500);
      const { id } = expectSuccess(await send(other, { type: 'stream', to: String(general.id), topic: 'slow', content: `@**${hookName}** slow` }));
      const replies = await until(async () => {
        const found = await repliesOf(hook.id, id);
        return found.length >= 2 ? found : undefined;
      }, 20_000);
      expect(botServer.requests).toHaveLength(3);
      expect(replies[0]).toMatchObject({ topic: 'slow', content: 'Failure! Bot is unavailable' });
      expect(replies[1].content).toContain('triggered an outgoing webhook.\nRequest timed out after 0.5 seconds.');
      expect(replies.map((reply) => reply.content)).not.toContain('too late');
    });

    it('retries a service it cannot reach and reports the connection error', async () => {
      const unreachable = await makeBot(member, { full_name: 'Down Hook', short_name: 'down', bot_type: 3, payload_url: JSON.stringify('http://127.0.0.1:9/') });
      const { id } = expectSuccess(await send(other, { type: 'private', to: JSON.stringify([unreachable.id]), content: 'are you there?' }));
      const replies = await until(async () => {
        const found = await repliesOf(unreachable.id, id);
        return found.length >= 2 ? found : undefined;
      }, 20_000);
      expect(replies[0].content).toBe('Failure! Bot is unavailable');
      expect(replies[1].content).toContain('A connection error occurred. Is my bot server down?');
    });
  });
});


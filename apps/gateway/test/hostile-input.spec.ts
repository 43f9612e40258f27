import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { ENDPOINT_REGISTRY, SERVICES, type Endpoint } from '@teamchat/contracts';
import { Factory, Hostile, TEST_ROOT_HOST, TestSystem, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';

const { ENCODINGS, FailureLog, describeRequest, encodePieces, encodedRequest, endpointLabel, planRequest, plansFor, pool, sendRaw } = Hostile;
type EndpointDecl = Hostile.EndpointDecl;
type Expectations = Hostile.Expectations;
type HttpShape = Hostile.HttpShape;
type Plan = Hostile.Plan;
type Pools = Hostile.Pools;

/**
 * Property-based hostile input (issue 22): every endpoint the registry declares is called with
 * values generated from its declaration and with hostile ones (deep and wide JSON, NUL, invalid
 * UTF-8, lone surrogates, huge numbers, LIKE wildcards, long and empty strings, wrong types,
 * broken multipart and compression, wrong Content-Types, every Authorization shape, upper-case
 * and doubled-slash paths), as an owner, a member, nobody, a wrong key and another organization.
 * No answer may be a 5xx; every error is Zulip's envelope (file and tus routes excepted); nothing
 * succeeds without the credentials it needs; and the system is still ready afterwards.
 *
 * Bounded and reproducible: a fixed seed (FUZZ_SEED overrides it) and a fixed number of requests.
 * All failures of a run are collected and reported together, deduplicated by endpoint, kind, status.
 * FUZZ_ONLY (a regular expression on `METHOD /path`) runs some endpoints only; FUZZ_REPORT names a
 * file for the run's failures and timings as JSON; FUZZ_TRACE one for every request and its status.
 */

const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : 22;
/** Requests per endpoint beyond the owner's one per hostile kind. */
const RUNS = { ownerGenerated: 1, member: 4, unauthenticated: 2, wrongKey: 1, otherOrg: 1 };
/** The costly kinds (10,000-deep and 100,000-wide JSON) go to the owner phase only, one deep form per endpoint in turn. */
const HEAVY = new Set(['deep-array', 'deep-object', 'wide-array', 'wide-object']);
const CONCURRENCY = 4;

/** A stable 32-bit seed per endpoint and phase: adding an endpoint does not change the others' values. */
function seedFor(...parts: string[]): number {
  let hash = 2166136261 ^ SEED;
  for (const char of `${SEED}|${parts.join('|')}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return hash | 0;
}
const sample = <T>(arbitrary: fc.Arbitrary<T>, runs: number, ...seedParts: string[]): T[] =>
  fc.sample(arbitrary, { seed: seedFor(...seedParts), numRuns: runs });

const basic = (text: string | Buffer) => `Basic ${Buffer.from(text).toString('base64')}`;
const credentials = (user: { email: string; apiKey: string }) => basic(`${user.email}:${user.apiKey}`);

interface Org {
  subdomain: string;
  host: string;
  realmId: number;
  owner: TestUser;
  member: TestUser;
  admin: TestUser;
  guest: TestUser;
  victim: TestUser;
  deactivated: TestUser;
  pools: Pools;
  attachmentUrls: string[];
}

/** Endpoints that take things away run last, self-deactivation very last, so the others meet intact fixtures. */
function destructiveness(e: Endpoint): number {
  if (e.method === 'delete' && e.path === '/users/me') return 3;
  if (e.method === 'delete' || /deactivate|delete/.test(e.path)) return 2;
  if (e.method === 'patch' && /^\/users\/\{/.test(e.path)) return 1;
  return 0;
}

describe('hostile input on every declared endpoint', () => {
  let system: TestSystem;
  let factory: Factory;
  /** The owner phase's throwaway organization: whatever the owner deletes there harms nobody else. */
  let own: Org;
  /** The organization every other caller is tried against. */
  let main: Org;
  /** A user of a third organization, whose valid key is no key on `main`. */
  let outsider: TestUser;
  const log = new FailureLog();
  const exited: string[] = [];
  const timings: string[] = [];

  async function apiCall(org: Org, user: TestUser, method: string, path: string, form: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    const text = new URLSearchParams(Object.entries(form).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
    const shape: HttpShape =
      method === 'GET'
        ? { method, url: `/api/v1${path}${text ? `?${text}` : ''}`, headers: {} }
        : { method, url: `/api/v1${path}`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: Buffer.from(text) };
    shape.headers.Authorization = credentials(user);
    const answer = await sendRaw(system.ports.gateway, org.host, shape);
    if (answer.status !== 200) {
      console.warn(`fixture ${method} ${path} for ${org.subdomain}: ${answer.status} ${answer.text.slice(0, 200)}`);
      return undefined;
    }
    return JSON.parse(answer.text) as Record<string, unknown>;
  }

  async function upload(org: Org, user: TestUser, name: string): Promise<string | undefined> {
    const boundary = 'fixtureBoundary';
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\nhello file\r\n--${boundary}--\r\n`,
    );
    const answer = await sendRaw(system.ports.gateway, org.host, {
      method: 'POST',
      url: '/api/v1/user_uploads',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, Authorization: credentials(user) },
      body,
    });
    return answer.status === 200 ? (JSON.parse(answer.text) as { url: string }).url : undefined;
  }

  /** An organization with staff, channels, messages, a group, and (through the API) a draft, a scheduled message, a file, a folder, a view. */
  async function organization(subdomain: string): Promise<Org> {
    const realm = await factory.organization({ subdomain });
    const owner = await factory.user(realm, { role: Role.OWNER, fullName: 'Olivia Owner' });
    const admin = await factory.user(realm, { role: Role.ADMINISTRATOR, fullName: 'Adam Admin' });
    const member = await factory.user(realm, { role: Role.MEMBER, fullName: 'Mia Member' });
    const guest = await factory.user(realm, { role: Role.GUEST, fullName: 'Gus Guest' });
    const victim = await factory.user(realm, { role: Role.MEMBER, fullName: 'Vic Victim' });
    const deactivated = await factory.user(realm, { isActive: false, fullName: 'Gone User' });
    const everyone = [owner, admin, member, guest, victim];
    const general = await factory.channel(realm, { name: 'general', subscribers: everyone, creator: owner });
    const secret = await factory.channel(realm, { name: 'secret plans', inviteOnly: true, subscribers: [owner, member], creator: owner });
    const lonely = await factory.channel(realm, { name: 'lonely', creator: owner });
    const topics = ['greetings', 'plans', 'random chatter'];
    const messageIds = [
      ...(await factory.channelMessages(member, general, topics[0], 3)),
      ...(await factory.channelMessages(owner, secret, topics[1], 2)),
    ];
    const group = await factory.userGroup(realm, { name: 'support team', members: [member, victim], creator: owner });
    const systemGroups = await system.db.userGroup.findMany({ where: { realmId: realm.id, isSystemGroup: true }, select: { id: true } });

    const org: Org = { subdomain, host: `${subdomain}.${TEST_ROOT_HOST}`, realmId: realm.id, owner, member, admin, guest, victim, deactivated, attachmentUrls: [], pools: undefined as unknown as Pools };
    const now = Math.floor(Date.now() / 1000);
    const sent = await apiCall(org, member, 'POST', '/messages', { type: 'stream', to: general.id, topic: topics[2], content: 'hello @**Olivia Owner**' });
    if (typeof sent?.id === 'number') messageIds.push(sent.id);
    const direct = await apiCall(org, member, 'POST', '/messages', { type: 'direct', to: [owner.id], content: 'a direct word' });
    if (typeof direct?.id === 'number') messageIds.push(direct.id);
    const drafts = await apiCall(org, member, 'POST', '/drafts', { drafts: [{ type: 'stream', to: [general.id], topic: 'draft topic', content: 'draft', timestamp: now }] });
    const scheduled = await apiCall(org, member, 'POST', '/scheduled_messages', {
      type: 'stream',
      to: general.id,
      topic: 'later',
      content: 'later',
      scheduled_delivery_timestamp: now + 86400,
    });
    const folder = await apiCall(org, owner, 'POST', '/channel_folders/create', { name: 'Projects', description: 'work' });
    await apiCall(org, member, 'POST', '/navigation_views', { fragment: 'narrow/has/link', is_pinned: true, name: 'Links' });
    for (const name of ['notes.txt', 'report.txt']) {
      const url = await upload(org, member, name);
      if (url) org.attachmentUrls.push(url);
    }
    const attachments = await system.db.attachment.findMany({ where: { realmId: realm.id }, select: { id: true } }).catch(() => [] as { id: number }[]);

    const ids = {
      users: everyone.map((u) => u.id).concat(deactivated.id),
      streams: [general.id, secret.id, lonely.id],
      messages: messageIds,
      groups: [group.id, ...systemGroups.map((g) => g.id)],
      drafts: ((drafts?.ids as number[] | undefined) ?? []).slice(),
      scheduled: typeof scheduled?.scheduled_message_id === 'number' ? [scheduled.scheduled_message_id] : [],
      folders: typeof folder?.channel_folder_id === 'number' ? [folder.channel_folder_id] : [],
      attachments: attachments.map((a) => a.id),
    };
    const emails = everyone.map((u) => u.email).concat(deactivated.email);
    const streamNames = ['general', 'secret plans', 'lonely'];
    const intPools: [RegExp, number[]][] = [
      [/folder|^order$/, ids.folders],
      [/group|subgroup|^can_/, ids.groups],
      [/stream|channel/, ids.streams],
      [/message|^msg|anchor/, ids.messages],
      [/draft/, ids.drafts],
      [/scheduled_message/, ids.scheduled],
      [/attachment/, ids.attachments],
      [/realm/, [realm.id]],
      [/timestamp/, [now + 3600, now + 86400 * 7]],
      [/user|principal|member|subscriber|sender|^to$|^add$|^delete$|owner|direct/, ids.users],
      [/num_|limit|days|secs|last_event_id|policy|role|size|percent/, [0, 1, 2, 10, 100]],
    ];
    const stringPools: [RegExp, string[]][] = [
      [/user_id_or_email/, [...emails, ...ids.users.map(String)]],
      // fetch_api_key's username is the one whose password the pool holds, so a wildcard in it could match.
      [/username/, [member.email]],
      [/email|principal/, emails],
      [/^to$/, [...streamNames, String(general.id), JSON.stringify([owner.id]), JSON.stringify([owner.email])]],
      [/topic|subject/, topics],
      [/fragment/, ['narrow/has/link', 'inbox', 'recent', 'narrow/is/starred']],
      [/filename/, org.attachmentUrls.map((url) => url.split('/').slice(3).join('/'))],
      [/emoji_name/, ['smile', 'octopus', 'thumbs_up']],
      [/emoji_code/, ['1f642', '1f419']],
      [/reaction_type/, ['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji']],
      [/timezone/, ['UTC', 'Europe/Berlin']],
      [/password/, [member.password]],
      [/full_name/, ['Mia Member', 'New Name']],
      [/stream|subscriptions|^name$|new_name/, [...streamNames, 'support team', 'Projects']],
      [/content|description|status_text/, ['hello', '**bold** @**Mia Member**', 'see #**general>greetings**']],
      [/operand/, [...streamNames, ...topics, ...emails, 'starred', 'mentioned']],
      [/operator/, ['channel', 'stream', 'topic', 'is', 'sender', 'dm', 'search', 'id', 'has', 'near', 'with']],
      [/queue_id/, ['1700000000:1']],
      [/anchor/, ['newest', 'oldest', 'first_unread', String(messageIds[0])]],
      [/^op$/, ['add', 'remove', 'start', 'stop']],
      [/flag/, ['read', 'starred']],
      [/^type$/, ['stream', 'channel', 'direct', 'private']],
      [/language/, ['en', 'de']],
    ];
    org.pools = {
      ints: (hint) => intPools.find(([pattern]) => pattern.test(hint))?.[1] ?? [],
      strings: (hint) => stringPools.find(([pattern]) => pattern.test(hint))?.[1] ?? [],
    };
    return org;
  }

  /** Puts a caller back as it was (active, its role, its address) if an endpoint just changed that. */
  async function repair(user: TestUser): Promise<void> {
    const row = await system.db.user.findUnique({ where: { id: user.id }, select: { isActive: true, role: true, deliveryEmail: true } });
    if (row && row.isActive && row.role === user.role && row.deliveryEmail === user.email) return;
    await system.db.user.update({ where: { id: user.id }, data: { isActive: true, role: user.role, deliveryEmail: user.email } });
  }

  /** A process that died is reported against the endpoint whose requests were last sent, and started again. */
  async function checkProcesses(after: string): Promise<void> {
    const running = system.pids();
    for (const name of SERVICES) {
      if (running.has(name)) continue;
      exited.push(`${name} (during ${after})`);
      log.add({ endpoint: after, role: '-', kind: 'process exited', request: '(one of this endpoint’s requests)', problem: `${name} process exited`, status: 0, body: system.logOf(name).replace(/\s+/g, ' ').slice(-800) });
      await system.startService(name);
    }
  }

  beforeAll(async () => {
    system = await TestSystem.start({ env: { RATE_LIMIT_ENABLED: 'false' } });
    factory = new Factory(system.db);
    own = await organization('hostile-own');
    main = await organization('hostile-main');
    const elsewhere = await factory.organization({ subdomain: 'hostile-elsewhere' });
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
  }, 120_000);
  afterAll(() => system?.stop());

  it('answers every request without a 5xx, with the error envelope, and refuses what needs credentials', async () => {
    const started = Date.now();
    // FUZZ_ONLY (a regular expression on `METHOD /path`) narrows a run to some endpoints, to re-check a fix quickly.
    const only = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : undefined;
    // FUZZ_TRACE names a file for every request sent, with its status (to see what a kind did where it did not fail).
    const trace: string[] | undefined = process.env.FUZZ_TRACE ? [] : undefined;
    const endpoints = [...ENDPOINT_REGISTRY]
      .filter((e) => !only || only.test(endpointLabel(e as unknown as EndpointDecl)))
      .sort((a, b) => destructiveness(a) - destructiveness(b)) as unknown as (Endpoint & EndpointDecl)[];
    expect(endpoints.length).toBeGreaterThan(0);

    const send = async (org: Org, e: EndpointDecl, role: string, authorization: string | undefined, shape: HttpShape, kind: string, expectations: Expectations, target?: string) => {
      if (authorization !== undefined) shape.headers.Authorization = authorization;
      const t = Date.now();
      const answer = await sendRaw(system.ports.gateway, org.host, shape);
      log.record({ endpoint: endpointLabel(e), role, kind, target, request: describeRequest(shape) }, answer, expectations, Date.now() - t);
      if (trace) trace.push(`${answer.status}\t${Date.now() - t} ms\t${role}\t${kind}${target ? `@${target}` : ''}\t${describeRequest(shape, 300)}`);
    };
    const needsUser = (e: EndpointDecl) => e.auth === 'user' || e.auth === 'spectator';
    const planExpectations = (e: EndpointDecl, plan: Plan, validCredentials: boolean): Expectations => ({
      refuse: needsUser(e) && !validCredentials,
      nothingMatches: validCredentials && plan.kind === 'like-wildcard-name',
    });

    for (const [index, e] of endpoints.entries()) {
      const label = endpointLabel(e);
      const t0 = Date.now();

      // The owner, in the throwaway organization: each hostile kind the declaration allows, once (some
      // kinds once per parameter), with one of the two 10,000-deep forms in turn.
      const ownerTasks: (() => Promise<void>)[] = [];
      for (const { kind, key, arbitrary } of plansFor(e, own.pools)) {
        if (kind === (index % 2 ? 'deep-array' : 'deep-object')) continue;
        for (const plan of sample(arbitrary, kind === 'generated' ? RUNS.ownerGenerated : 1, 'owner', label, key)) {
          ownerTasks.push(() => send(own, e, 'owner', credentials(own.owner), planRequest(e, plan), plan.kind, planExpectations(e, plan, true), plan.target));
        }
      }
      await pool(CONCURRENCY, ownerTasks);
      await repair(own.owner);

      // Everyone else, in the main organization: generated and hostile values at random.
      const kindsMain = plansFor(e, main.pools);
      // A kind at random (then one of its per-parameter entries), so a kind with many entries is not favoured.
      const byKind = new Map<string, fc.Arbitrary<Plan>[]>();
      for (const k of kindsMain) if (!HEAVY.has(k.kind)) byKind.set(k.kind, [...(byKind.get(k.kind) ?? []), k.arbitrary]);
      const anyPlan = fc.oneof(...[...byKind.values()].map((entries) => fc.oneof(...entries)));
      const generated = kindsMain.find((k) => k.kind === 'generated')!.arbitrary;
      const tasks: (() => Promise<void>)[] = [];
      const callers: [string, string | undefined, number, boolean][] = [
        ['member', credentials(main.member), RUNS.member, true],
        ['unauthenticated', undefined, RUNS.unauthenticated, false],
        ['wrong-key', basic(`${main.member.email}:${'Z'.repeat(32)}`), RUNS.wrongKey, false],
        ['other-org', credentials(outsider), RUNS.otherOrg, false],
      ];
      for (const [role, authorization, runs, valid] of callers) {
        for (const plan of sample(anyPlan, runs, role, label)) {
          tasks.push(() => send(main, e, role, authorization, planRequest(e, plan), plan.kind, planExpectations(e, plan, valid), plan.target));
        }
      }

      // Every Authorization shape, with values the declaration accepts.
      const [plain] = sample(generated, 1, 'auth', label);
      const authShapes: [string, string][] = [
        ['empty-authorization', ''],
        ['basic-no-colon', basic('garbage')],
        ['basic-alone', 'Basic'],
        ['basic-not-base64', 'Basic !!!not-base64!!!'],
        ['basic-not-utf8', basic(Buffer.from([0xff, 0xfe, 0x3a, 0xc3, 0x28]))],
        ['basic-two-tokens', `${credentials(main.member)} extra`],
        ['wrong-key', basic(`${main.member.email}:${'Z'.repeat(32)}`)],
        ['malformed-key', basic(`${main.member.email}:short`)],
        ['other-org-valid-key', credentials(outsider)],
        ['throwaway-org-owner-key', credentials(own.owner)],
        ['deactivated-user-key', credentials(main.deactivated)],
        ['right-key-wildcard-email', basic(`${main.member.email.replace(/^./, '_')}:${main.member.apiKey}`)],
        ['right-key-percent-email', basic(`%:${main.member.apiKey}`)],
        ['right-key-other-email', basic(`${main.owner.email}:${main.member.apiKey}`)],
        ['bearer', 'Bearer x'],
        ['huge-authorization', `Basic ${'QUFB'.repeat(2000)}`],
      ];
      // The gateway's own routes (no command behind them) get every shape; command routes, which all
      // share one admission, the valid keys in the wrong place and a rotating quarter of the rest.
      const ownRoute = !('subject' in e);
      const alwaysShapes = new Set(['other-org-valid-key', 'right-key-wildcard-email']);
      authShapes.forEach(([shapeName, authorization], i) => {
        if (!ownRoute && !alwaysShapes.has(shapeName) && (i + index) % 4 !== 0) return;
        tasks.push(() => send(main, e, shapeName, authorization, planRequest(e, plain), `auth:${shapeName}`, { refuse: needsUser(e) }));
      });

      // Paths that differ from the declared one only in case or slashes: without credentials they reach no handler.
      const upper = (template: string) => template.replace(/[^/{}]+(?=\/|$)/g, (segment) => (segment.startsWith('{') ? segment : segment.toUpperCase()));
      const mixed = (template: string) => template.replace(/[a-z]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c));
      const declared = planRequest(e, plain);
      const [pathOnly, query] = declared.url.split(/\?(.*)/s);
      const filled = (template: string) =>
        template.replace(/\{([a-z_]+)\}/g, (_m, name: string) => encodePieces(plain.path[name] ?? [''], name === e.restPathParam));
      const rest = pathOnly.slice('/api/v1'.length);
      const variants: [string, string][] = [
        ['upper-prefix', `/API/V1${rest}`],
        ['upper-case', `/API/V1${filled(upper(e.path))}`],
        ['mixed-case', `/Api/V1${filled(mixed(e.path))}`],
        ['double-slash-after-prefix', `/api/v1/${rest}`],
        ['double-slash-leading', `/${pathOnly}`],
        ['double-slash-inner', pathOnly.replace(/\/([^/]*)$/, '//$1')],
        ['trailing-slash', `${pathOnly}/`],
        ['dot-segment', `/api/v1/.${rest}`],
      ];
      const withPath = (path: string): HttpShape => ({ ...declared, headers: { ...declared.headers }, url: query ? `${path}?${query}` : path });
      for (const [variant, path] of variants) {
        tasks.push(() => send(main, e, 'unauthenticated', undefined, withPath(path), `path:${variant}`, { refuse: needsUser(e) }));
      }
      tasks.push(() => send(main, e, 'wrong-key', basic(`${main.member.email}:${'Z'.repeat(32)}`), withPath(variants[0][1]), `path:${variants[0][0]}`, { refuse: needsUser(e) }));
      tasks.push(() => send(main, e, 'member', credentials(main.member), withPath(variants[1][1]), `path:${variants[1][0]}`, {}));

      // Body encodings: broken multipart, compression that is not, wrong types. The gateway's own routes
      // get all; command routes, which share the body parsers, a rotating quarter and one without credentials.
      const [encoded] = sample(generated, 1, 'encodings', label);
      ENCODINGS.forEach((encoding, i) => {
        if (!ownRoute && (i + index) % 4 !== 0) return;
        tasks.push(() => send(main, e, 'member', credentials(main.member), encodedRequest(e, encoded, encoding), encoding, {}));
      });
      const unauthenticatedEncodings = ['gzip-not-gzip', 'multipart-no-boundary', 'multipart-truncated', 'multipart-1mb-field'] as const;
      unauthenticatedEncodings.forEach((encoding, i) => {
        if (!ownRoute && (i + index) % 4 !== 0) return;
        tasks.push(() => send(main, e, 'unauthenticated', undefined, encodedRequest(e, encoded, encoding), encoding, { refuse: needsUser(e) }));
      });

      await pool(CONCURRENCY, tasks);
      await repair(main.member);
      await checkProcesses(label);
      timings.push(`${label}: ${ownerTasks.length + tasks.length} requests in ${Date.now() - t0} ms`);
    }

    // The routes that answer files or tus: only "no 5xx" holds for them.
    const fileTasks: (() => Promise<void>)[] = [];
    const fileRoute = { method: 'get', path: '/user_uploads/…', pathParams: [], auth: 'user', params: {} } as EndpointDecl;
    const tusRoute = { method: 'post', path: '/api/v1/tus', pathParams: [], auth: 'user', params: {} } as EndpointDecl;
    const url = main.attachmentUrls[0] ?? `/user_uploads/${main.realmId}/aa/bb/notes.txt`;
    const realm = main.realmId;
    const fileProbes: [string, HttpShape][] = [
      ['existing', { method: 'GET', url, headers: {} }],
      ['range-garbage', { method: 'GET', url, headers: { Range: 'bytes=abc-' } }],
      ['range-huge', { method: 'GET', url, headers: { Range: 'bytes=99999999999999999999-' } }],
      ['range-many', { method: 'GET', url, headers: { Range: `bytes=${Array.from({ length: 200 }, (_, i) => `${i}-${i}`).join(',')}` } }],
      ['invalid-utf8', { method: 'GET', url: `/user_uploads/${realm}/%FF/%C3%28`, headers: {} }],
      ['lone-surrogate', { method: 'GET', url: `/user_uploads/${realm}/%ED%A0%80/x`, headers: {} }],
      ['nul', { method: 'GET', url: `/user_uploads/${realm}/a%00b/c`, headers: {} }],
      ['traversal', { method: 'GET', url: `/user_uploads/${realm}/..%2F..%2F..%2Fetc%2Fpasswd`, headers: {} }],
      ['like-wildcard', { method: 'GET', url: `/user_uploads/${realm}/%25/_`, headers: {} }],
      ['realm-2^31', { method: 'GET', url: '/user_uploads/2147483648/aa/bb/x.txt', headers: {} }],
      ['realm-2^70', { method: 'GET', url: '/user_uploads/1180591620717411303424/aa/bb/x.txt', headers: {} }],
      ['long-name', { method: 'GET', url: `/user_uploads/${realm}/${'x'.repeat(8000)}`, headers: {} }],
      ['temporary-garbage', { method: 'GET', url: '/user_uploads/temporary/%FF%FE/x', headers: {} }],
      ['temporary-unknown', { method: 'GET', url: '/user_uploads/temporary/abcdefghijklmnop/x.txt', headers: {} }],
      ['api-key-garbage', { method: 'GET', url: `${url}?api_key=%00%FF`, headers: {} }],
      ['upper-case', { method: 'GET', url: url.toUpperCase(), headers: {} }],
      ['double-slash', { method: 'GET', url: url.replace('/user_uploads/', '/user_uploads//'), headers: {} }],
    ];
    const tusProbes: [string, HttpShape][] = [
      ['create-no-length', { method: 'POST', url: '/api/v1/tus', headers: { 'Tus-Resumable': '1.0.0' } }],
      ['create-length-2^63', { method: 'POST', url: '/api/v1/tus', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '9223372036854775808' } }],
      ['create-length-1e309', { method: 'POST', url: '/api/v1/tus', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '1e309' } }],
      ['create-length-negative', { method: 'POST', url: '/api/v1/tus', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '-1' } }],
      ['create-metadata-garbage', { method: 'POST', url: '/api/v1/tus', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '5', 'Upload-Metadata': 'filename %%%, a b c, ,' } }],
      ['create-metadata-nul', { method: 'POST', url: '/api/v1/tus', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '5', 'Upload-Metadata': `filename ${Buffer.from('a\0b').toString('base64')}` } }],
      ['create-deferred', { method: 'POST', url: '/api/v1/tus', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Defer-Length': '1' } }],
      ['create-wrong-version', { method: 'POST', url: '/api/v1/tus', headers: { 'Tus-Resumable': '0.0.1', 'Upload-Length': '5' } }],
      ['patch-unknown', { method: 'PATCH', url: '/api/v1/tus/nonexistent', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: Buffer.from('hello') }],
      ['patch-traversal', { method: 'PATCH', url: '/api/v1/tus/..%2F..%2Fetc', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '-1', 'Content-Type': 'text/plain' }, body: Buffer.from('x') }],
      ['head-invalid-utf8', { method: 'HEAD', url: '/api/v1/tus/%FF', headers: { 'Tus-Resumable': '1.0.0' } }],
      ['delete-unknown', { method: 'DELETE', url: '/api/v1/tus/%00', headers: { 'Tus-Resumable': '1.0.0' } }],
      ['options', { method: 'OPTIONS', url: '/api/v1/tus', headers: {} }],
      ['gzip-not-gzip', { method: 'POST', url: '/api/v1/tus', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '5', 'Content-Encoding': 'gzip', 'Content-Type': 'application/offset+octet-stream' }, body: Buffer.from('hello') }],
      ['upper-case', { method: 'POST', url: '/API/V1/TUS', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '5' } }],
    ];
    // A real upload begun, then continued wrongly.
    const begun = await sendRaw(system.ports.gateway, main.host, { method: 'POST', url: '/api/v1/tus', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '5', 'Upload-Metadata': `filename ${Buffer.from('t.txt').toString('base64')}`, Authorization: credentials(main.member) } });
    const location = typeof begun.headers.location === 'string' ? begun.headers.location : undefined;
    if (location) {
      const at = location.startsWith('http') ? new URL(location).pathname : location;
      tusProbes.push(
        ['patch-wrong-offset', { method: 'PATCH', url: at, headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '3', 'Content-Type': 'application/offset+octet-stream' }, body: Buffer.from('hello') }],
        ['patch-offset-2^63', { method: 'PATCH', url: at, headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '9223372036854775808', 'Content-Type': 'application/offset+octet-stream' }, body: Buffer.from('hello') }],
        ['patch-too-long', { method: 'PATCH', url: at, headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: Buffer.alloc(5000, 'z') }],
        ['patch-wrong-type', { method: 'PATCH', url: at, headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'text/plain' }, body: Buffer.from('hello') }],
      );
    }
    for (const [route, probes] of [[fileRoute, fileProbes], [tusRoute, tusProbes]] as const) {
      for (const [kind, shape] of probes) {
        for (const [role, authorization] of [['member', credentials(main.member)], ['unauthenticated', undefined], ['wrong-key', basic(`${main.member.email}:${'Z'.repeat(32)}`)]] as const) {
          fileTasks.push(() => send(main, route, role, authorization, { ...shape, headers: { ...shape.headers } }, kind, { notApi: true }));
        }
      }
    }
    await pool(CONCURRENCY, fileTasks);
    await checkProcesses('file and tus routes');

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const report = log.format();
    console.log(
      `hostile input: ${log.requests} requests to ${endpoints.length} declared endpoints (and the file and tus routes) in ${seconds} s, seed ${SEED} (FUZZ_SEED overrides); ` +
        `${log.size} distinct failures${exited.length ? `; processes exited: ${exited.join(', ')}` : ''}`,
    );
    if (trace) writeFileSync(process.env.FUZZ_TRACE!, `${trace.join('\n')}\n`);
    if (process.env.FUZZ_REPORT) writeFileSync(process.env.FUZZ_REPORT, JSON.stringify({ seed: SEED, requests: log.requests, seconds, timings, timeByKind: Object.fromEntries(log.timeByKind), slowest: log.slowest, failures: log.entries() }, null, 2));
    if (log.size > 0) throw new Error(`${log.size} distinct failures in ${log.requests} requests (seed ${SEED}):${report}`);
  }, 900_000);

  it('leaves every service running and the system ready', async () => {
    expect(exited).toEqual([]);
    const ready = await fetch(`http://127.0.0.1:${system.ports.gateway}/health/ready`, { signal: AbortSignal.timeout(5000) });
    expect({ status: ready.status, body: await ready.json() }).toMatchObject({ status: 200, body: { ready: true } });
    for (const service of SERVICES.filter((s) => s !== 'gateway')) {
      const res = await fetch(`http://127.0.0.1:${system.ports[service]}/health/ready`, { signal: AbortSignal.timeout(5000) });
      expect({ service, status: res.status }).toEqual({ service, status: 200 });
    }
  });
});

import { Role } from '@teamchat/zulip';
import {
  EventQueueClient,
  REPLICA_APPLICATION_NAME,
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type Credentials,
  type TestUser,
} from '@teamchat/testing';

interface Page {
  anchor: number;
  found_anchor: boolean;
  found_oldest: boolean;
  found_newest: boolean;
  messages: { id: number; content: string; subject: string; flags: string[]; match_content?: string; match_subject?: string }[];
}

type Narrow = ({ operator: string; operand: unknown; negated?: boolean } | [string, unknown])[];

describe('search and narrow operators', () => {
  let system: TestSystem;
  let factory: Factory;
  let subdomain: string;
  let realmId: number;
  let owner: TestUser, member: TestUser, friend: TestUser, guest: TestUser, deactivated: TestUser, outsider: TestUser;
  let kitchen: { id: number; name: string };
  // Messages, by what they hold.
  let running: number, flour: number, bakingLink: number, picture: number, resolved: number, upload: number, fish: number;
  let vaultSecret: number, dm: number, groupDm: number, elsewhere: number;

  const as = (user: TestUser) => ({ auth: user, subdomain });
  const get = (user: TestUser, query: Record<string, unknown>) => system.api.get<Page>('/messages', query as never, as(user));
  const search = async (user: TestUser, narrow: Narrow, query: Record<string, unknown> = {}) => {
    const given = Object.entries({ anchor: 'newest', num_before: 100, narrow, ...query }).filter(([, value]) => value !== undefined);
    return expectSuccess(await get(user, Object.fromEntries(given)));
  };
  const ids = async (user: TestUser, narrow: Narrow, query: Record<string, unknown> = {}) => (await search(user, narrow, query)).messages.map((m) => m.id);
  const send = async (user: TestUser, form: Record<string, unknown>, sub = subdomain) =>
    expectSuccess(await system.api.post<{ id: number }>('/messages', form as never, { auth: user, subdomain: sub })).id;
  const inKitchen = { operator: 'channel', operand: 'kitchen' };

  beforeAll(async () => {
    system = await TestSystem.start({ readReplica: true });
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'search' });
    ({ owner, member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    friend = await factory.user(org.realm, { fullName: 'Friend' });
    deactivated = await factory.user(org.realm, { isActive: false });
    kitchen = await factory.channel(org.realm, { name: 'kitchen', subscribers: [owner, member, friend] });
    await factory.channel(org.realm, { name: 'vault', inviteOnly: true, subscribers: [owner, friend] });
    const stream = (to: string, topic: string, content: string) => ({ type: 'stream', to, topic, content });

    running = await send(friend, stream('kitchen', 'recipes', 'I was running to the bakery for fresh bread'));
    flour = await send(friend, stream('kitchen', 'recipes', 'The bread recipe needs 100% more flour'));
    bakingLink = await send(member, stream('kitchen', 'Bread baking', 'see https://example.com/guide'));
    picture = await send(friend, stream('kitchen', 'pictures', '![loaf](https://example.com/loaf.png)'));
    resolved = await send(friend, stream('kitchen', '✔ oven repair', 'fixed the oven'));
    upload = await send(friend, stream('kitchen', 'files', `[report.pdf](/user_uploads/${realmId}/ab/abcdefghijklmnopqrstuvwx/report.pdf)`));
    fish = await send(friend, stream('kitchen', 'fish & <chips>', 'crispy chips'));
    vaultSecret = await send(owner, stream('vault', 'secrets', 'secret bread formula'));
    dm = await send(friend, { type: 'direct', to: JSON.stringify([member.id]), content: 'bread for you' });
    groupDm = await send(friend, { type: 'direct', to: JSON.stringify([member.id, owner.id]), content: 'group bread' });

    const other = await factory.organization({ subdomain: 'search-elsewhere' });
    outsider = await factory.user(other, { role: Role.OWNER });
    await factory.channel(other, { name: 'kitchen', subscribers: [outsider] });
    elsewhere = await send(outsider, stream('kitchen', 'recipes', 'bread from elsewhere'), 'search-elsewhere');
  });
  afterAll(() => system.stop());

  describe('the search operator', () => {
    it('reads from the replica (DATABASE_REPLICA_URL), and nothing else does', async () => {
      const replicaQueries = async () =>
        (
          await system.db.$queryRaw<{ query: string }[]>`
            SELECT query FROM pg_stat_activity WHERE datname = current_database() AND application_name = ${REPLICA_APPLICATION_NAME}`
        ).map((row) => row.query);
      expect(await replicaQueries()).toEqual([]);
      await ids(member, [inKitchen]);
      expect(await replicaQueries()).toEqual([]);
      expect(await ids(member, [{ operator: 'search', operand: 'runs' }])).toEqual([running]);
      const queries = await replicaQueries();
      expect(queries.length).toBeGreaterThan(0);
      // The narrow's SELECT and its highlighting: searches only.
      for (const query of queries) expect(query).toMatch(/plainto_tsquery|ts_headline/);
    });

    it('matches words with stemming and highlights them as Zulip does, in the OpenAPI shape', async () => {
      const body = await search(member, [{ operator: 'search', operand: 'runs' }]);
      expectMatchesOpenApi('get', '/messages', body);
      expect(body.messages.map((m) => m.id)).toEqual([running]);
      expect(body.messages[0].match_content).toBe('<p>I was <span class="highlight">running</span> to the bakery for fresh bread</p>');
      expect(body.messages[0].match_subject).toBe('recipes');
      // Without a search, no match fields.
      const plain = await search(member, [inKitchen]);
      expect(plain.messages.every((m) => m.match_content === undefined && m.match_subject === undefined)).toBe(true);
    });

    it('needs every word, in the topic or the text, and highlights the escaped topic', async () => {
      expect(await ids(member, [{ operator: 'search', operand: 'fresh bread' }])).toEqual([running]);
      const body = await search(member, [{ operator: 'search', operand: 'baking' }]);
      expect(body.messages.map((m) => m.id)).toEqual([bakingLink]);
      expect(body.messages[0].match_subject).toBe('Bread <span class="highlight">baking</span>');
      const escaped = await search(member, [{ operator: 'search', operand: 'chips' }]);
      expect(escaped.messages.map((m) => m.id)).toEqual([fish]);
      expect(escaped.messages[0].match_subject).toBe('fish &amp; &lt;<span class="highlight">chips</span>&gt;');
      expect(escaped.messages[0].match_content).toBe('<p>crispy <span class="highlight">chips</span></p>');
    });

    it('matches a quoted phrase only as written', async () => {
      expect(await ids(member, [{ operator: 'search', operand: '"fresh bread"' }])).toEqual([running]);
      expect(await ids(member, [{ operator: 'search', operand: '"bread fresh"' }])).toEqual([]);
      expect(await ids(member, [{ operator: 'search', operand: 'recipe "100% more"' }])).toEqual([flour]);
      // LIKE's wildcards in a phrase are taken literally.
      expect(await ids(member, [{ operator: 'search', operand: '"100_ more"' }])).toEqual([]);
    });

    it('joins several search terms and combines with channel, topic, sender and negation', async () => {
      expect(await ids(member, [{ operator: 'search', operand: 'bread' }])).toEqual([running, flour, bakingLink, dm, groupDm]);
      expect(await ids(member, [inKitchen, { operator: 'search', operand: 'bread' }])).toEqual([running, flour, bakingLink]);
      expect(await ids(member, [inKitchen, { operator: 'topic', operand: 'recipes' }, { operator: 'search', operand: 'bread' }])).toEqual([running, flour]);
      expect(await ids(member, [{ operator: 'sender', operand: member.id }, { operator: 'search', operand: 'bread' }])).toEqual([bakingLink]);
      expect(await ids(member, [{ operator: 'search', operand: 'bread' }, { operator: 'search', operand: 'flour' }])).toEqual([flour]);
      expect(await ids(member, [{ operator: 'search', operand: 'bread' }, { operator: 'topic', operand: 'recipes', negated: true }])).toEqual([bakingLink, dm, groupDm]);
      expect(await ids(member, [{ operator: 'search', operand: 'bread' }, { operator: 'search', operand: 'flour', negated: true }])).toEqual([running, bakingLink, dm, groupDm]);
      expect(await ids(member, [{ operator: 'search', operand: 'bread' }, { operator: 'is', operand: 'dm' }])).toEqual([dm, groupDm]);
    });

    it('finds nothing for stop words alone, and takes hostile text as text', async () => {
      expect(await ids(member, [{ operator: 'search', operand: 'the' }])).toEqual([]);
      for (const text of ["'); DROP TABLE messages; --", '<script>alert(1)</script>', '!!! & | :*', '"unclosed']) {
        expect(await ids(member, [{ operator: 'search', operand: text }])).toEqual([]);
      }
      expect(await ids(member, [{ operator: 'search', operand: `${'x'.repeat(3000)} "${'y'.repeat(3000)}"` }])).toEqual([]);
      expectError(await get(member, { narrow: JSON.stringify([{ operator: 'search', operand: 'bread\u0000' }]) }), 400, 'BAD_REQUEST', 'narrow[0]["operand"] must not contain null bytes');
      expect(await system.db.message.count({ where: { realmId } })).toBeGreaterThan(0);
    });

    it('never reveals what the caller cannot read: private channels, history before joining, other organizations', async () => {
      expect(await ids(member, [{ operator: 'search', operand: 'secret' }])).toEqual([]);
      expectError(await get(member, { narrow: JSON.stringify([{ operator: 'channel', operand: 'vault' }, { operator: 'search', operand: 'secret' }]) }), 400, 'BAD_REQUEST', 'Invalid narrow operand: unknown channel vault');
      expect(await ids(friend, [{ operator: 'search', operand: 'secret' }])).toEqual([vaultSecret]);
      expectError(await get(guest, { narrow: JSON.stringify([inKitchen, { operator: 'search', operand: 'bread' }]) }), 400, 'BAD_REQUEST', 'Invalid narrow operand: unknown channel kitchen');
      expect(await ids(guest, [{ operator: 'search', operand: 'bread' }])).toEqual([]);
      const away = expectSuccess(await system.api.get<Page>('/messages', { anchor: 'newest', num_before: 100, narrow: [{ operator: 'search', operand: 'bread' }] } as never, { auth: outsider, subdomain: 'search-elsewhere' }));
      expect(away.messages.map((m) => m.id)).toEqual([elsewhere]);
      // A newcomer reads a public channel's history through a channel narrow, not through a bare search.
      const newcomer = await factory.user({ id: realmId }, { fullName: 'Newcomer' });
      expect(await ids(newcomer, [inKitchen, { operator: 'search', operand: 'bread' }])).toEqual([running, flour, bakingLink]);
      expect(await ids(newcomer, [{ operator: 'search', operand: 'bread' }])).toEqual([]);
    });

    it('reads around the anchor as usual', async () => {
      const body = await search(member, [{ operator: 'search', operand: 'bread' }], { anchor: String(flour), num_before: 1, num_after: 1 });
      expect(body.messages.map((m) => m.id)).toEqual([running, flour, bakingLink]);
      expect(body).toMatchObject({ anchor: flour, found_anchor: true, found_oldest: true, found_newest: false });
    });
  });

  describe('has, is, near, with, dm-including', () => {
    it('has:link, has:image and has:attachment, set when the message is sent', async () => {
      expect(await ids(member, [inKitchen, { operator: 'has', operand: 'link' }])).toEqual([bakingLink, upload]);
      expect(await ids(member, [inKitchen, { operator: 'has', operand: 'image' }])).toEqual([picture]);
      expect(await ids(member, [inKitchen, { operator: 'has', operand: 'attachment' }])).toEqual([upload]);
      expect(await ids(member, [inKitchen, { operator: 'has', operand: 'link', negated: true }])).toEqual([running, flour, picture, resolved, fish]);
      const stored = await system.db.message.findUniqueOrThrow({ where: { id: picture } });
      expect(stored).toMatchObject({ hasLink: false, hasImage: true, hasAttachment: false });
    });

    it('is:resolved and its negation', async () => {
      expect(await ids(member, [inKitchen, { operator: 'is', operand: 'resolved' }])).toEqual([resolved]);
      const unresolved = await ids(member, [inKitchen, { operator: 'is', operand: 'resolved', negated: true }]);
      expect(unresolved).not.toContain(resolved);
      expect(unresolved).toContain(running);
    });

    it('is:followed and is:muted follow the caller’s topic and channel settings', async () => {
      // Sending followed the topics each of them started: start from none.
      await system.db.userTopic.deleteMany({ where: { userId: { in: [member.id, friend.id] } } });
      await system.db.userTopic.create({ data: { userId: member.id, streamId: kitchen.id, topicName: 'Recipes', visibilityPolicy: 3 } });
      await system.db.userTopic.create({ data: { userId: member.id, streamId: kitchen.id, topicName: 'pictures', visibilityPolicy: 1 } });
      expect(await ids(member, [{ operator: 'is', operand: 'followed' }])).toEqual([running, flour]);
      expect(await ids(friend, [{ operator: 'is', operand: 'followed' }])).toEqual([]);
      expect(await ids(member, [{ operator: 'is', operand: 'muted' }])).toEqual([picture]);
      expect(await ids(member, [inKitchen, { operator: 'is', operand: 'muted', negated: true }])).not.toContain(picture);
      // A muted channel mutes its topics, except those unmuted or followed.
      await system.db.subscription.updateMany({ where: { userId: member.id, streamId: kitchen.id }, data: { isMuted: true } });
      try {
        expect(await ids(member, [{ operator: 'is', operand: 'muted' }])).toEqual([bakingLink, picture, resolved, upload, fish]);
      } finally {
        await system.db.subscription.updateMany({ where: { userId: member.id, streamId: kitchen.id }, data: { isMuted: false } });
        await system.db.userTopic.deleteMany({ where: { userId: member.id } });
      }
    });

    it('near reads the narrow around the message it names', async () => {
      const body = await search(member, [inKitchen, { operator: 'topic', operand: 'recipes' }, { operator: 'near', operand: flour }], { anchor: undefined, num_before: 1, num_after: 1 });
      expect(body.messages.map((m) => m.id)).toEqual([running, flour]);
      expect(body).toMatchObject({ anchor: flour, found_anchor: true, found_newest: true });
      // An explicit anchor still wins.
      const anchored = await search(member, [inKitchen, { operator: 'near', operand: String(flour) }], { anchor: 'oldest', num_before: 0, num_after: 1 });
      expect(anchored.messages.map((m) => m.id)).toEqual([running]);
    });

    it('with reads the conversation holding a message, and needs a message the caller can read', async () => {
      expect(await ids(member, [{ operator: 'with', operand: flour }])).toEqual([running, flour]);
      expect(await ids(member, [{ operator: 'with', operand: String(flour) }, { operator: 'search', operand: 'fresh' }])).toEqual([running]);
      // Other conversation terms give way to the message's own.
      expect(await ids(member, [{ operator: 'channel', operand: 'kitchen' }, { operator: 'topic', operand: 'files' }, { operator: 'with', operand: flour }])).toEqual([running, flour]);
      expect(await ids(member, [{ operator: 'with', operand: dm }])).toEqual([dm]);
      expect(await ids(owner, [{ operator: 'with', operand: groupDm }])).toEqual([groupDm]);
      // A conversation with someone deactivated since is still found.
      const leaver = await factory.user({ id: realmId }, { fullName: 'Leaver' });
      const farewell = await send(owner, { type: 'direct', to: JSON.stringify([leaver.id]), content: 'farewell' });
      await system.db.user.update({ where: { id: leaver.id }, data: { isActive: false } });
      expect(await ids(owner, [{ operator: 'with', operand: farewell }])).toEqual([farewell]);
      const refused = (narrow: Narrow) => get(member, { narrow: JSON.stringify(narrow) });
      expectError(await refused([{ operator: 'with', operand: vaultSecret }]), 400, 'BAD_REQUEST', "Invalid narrow operator: Invalid 'with' operator");
      expectError(await refused([{ operator: 'with', operand: elsewhere }]), 400, 'BAD_REQUEST', "Invalid narrow operator: Invalid 'with' operator");
      expectError(await refused([{ operator: 'with', operand: 999999999 }]), 400, 'BAD_REQUEST', "Invalid narrow operator: Invalid 'with' operator");
      // An unreadable message leaves a narrow that names a conversation itself as it is.
      expect(await ids(member, [inKitchen, { operator: 'topic', operand: 'files' }, { operator: 'with', operand: vaultSecret }])).toEqual([upload]);
    });

    it('dm-including finds the direct messages with someone', async () => {
      expect(await ids(member, [{ operator: 'dm-including', operand: friend.id }])).toEqual([dm, groupDm]);
      expect(await ids(member, [{ operator: 'dm-including', operand: owner.email }])).toEqual([groupDm]);
      expect(await ids(member, [{ operator: 'dm-including', operand: member.id }])).toEqual([dm, groupDm]);
      expect(await ids(member, [{ operator: 'dm-including', operand: owner.id, negated: true }, { operator: 'is', operand: 'dm' }])).toEqual([dm]);
    });
  });

  it('use_first_unread_anchor anchors at the first unread message, whatever the anchor says', async () => {
    const reader = await factory.user({ id: realmId }, { fullName: 'Reader' });
    await factory.subscribe(reader, kitchen);
    const first = await send(friend, { type: 'stream', to: 'kitchen', topic: 'later', content: 'one' });
    const second = await send(friend, { type: 'stream', to: 'kitchen', topic: 'later', content: 'two' });
    const body = await search(reader, [inKitchen], { anchor: 'newest', use_first_unread_anchor: true, num_before: 0, num_after: 1 });
    expect(body).toMatchObject({ anchor: first, found_anchor: true });
    expect(body.messages.map((m) => m.id)).toEqual([first, second]);
  });

  it.each([
    [[{ operator: 'search', operand: '' }], 'Invalid narrow operand: search cannot be blank'],
    [[{ operator: 'search', operand: '   ' }], 'Invalid narrow operand: search cannot be blank'],
    [[{ operator: 'search', operand: 12 }], 'Invalid narrow operand: search must be a string'],
    [[{ operator: 'search', operand: ['a'] }], 'Invalid narrow operand: search must be a string'],
    [[{ operator: 'has', operand: 'color' }], "Invalid narrow operator: unknown 'has' operand color"],
    [[{ operator: 'is', operand: 'shiny' }], "Invalid narrow operator: unknown 'is' operand shiny"],
    [[{ operator: 'near', operand: 'soon' }], 'Invalid narrow operator: Invalid message ID'],
    [[{ operator: 'id', operand: -3 }], 'Invalid narrow operator: Invalid message ID'],
    [[{ operator: 'with', operand: 'that one' }], "Invalid narrow operator: Invalid 'with' operator"],
    [[{ operator: 'with', operand: 1 }, { operator: 'with', operand: 2 }], "Invalid narrow operator combination: Duplicate 'with' operators."],
    [[{ operator: 'dm-including', operand: 999999 }], 'Invalid narrow operand: unknown user 999999'],
    [[{ operator: 'dm-including', operand: [1, 2] }], 'Invalid narrow operand: dm-including'],
  ])('refuses the narrow %j', async (narrow, msg) => {
    expectError(await get(member, { narrow: JSON.stringify(narrow) }), 400, 'BAD_REQUEST', msg);
  });

  describe('GET /messages/matches_narrow', () => {
    const matches = (user: TestUser, query: Record<string, unknown>, options: { subdomain: string; auth?: Credentials } = as(user)) =>
      system.api.get<{ messages: Record<string, { match_content: string; match_subject: string }> }>('/messages/matches_narrow', query as never, options);

    it('answers which of the caller’s messages match, highlighted for a search', async () => {
      const body = expectSuccess(await matches(member, { msg_ids: [running, flour, bakingLink, vaultSecret, elsewhere], narrow: [{ operator: 'search', operand: 'fresh bread' }] }));
      expectMatchesOpenApi('get', '/messages/matches_narrow', body);
      expect(body.messages).toEqual({
        [running]: { match_content: '<p>I was running to the bakery for <span class="highlight">fresh</span> <span class="highlight">bread</span></p>', match_subject: 'recipes' },
      });
      const plain = expectSuccess(await matches(member, { msg_ids: [flour, fish, dm], narrow: [inKitchen] }));
      expect(plain.messages).toEqual({
        [flour]: { match_content: '<p>The bread recipe needs 100% more flour</p>', match_subject: 'recipes' },
        [fish]: { match_content: '<p>crispy chips</p>', match_subject: 'fish &amp; &lt;chips&gt;' },
      });
      // Messages the caller cannot read never match.
      expect(expectSuccess(await matches(member, { msg_ids: [vaultSecret, elsewhere], narrow: [] })).messages).toEqual({});
    });

    it('refuses bad input and callers without valid credentials', async () => {
      expectError(await matches(member, { narrow: [] }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'msg_ids' argument", { var_name: 'msg_ids' });
      expectError(await matches(member, { msg_ids: [running] }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'narrow' argument", { var_name: 'narrow' });
      expectError(await matches(member, { msg_ids: 'nope', narrow: [] }), 400, 'BAD_REQUEST', 'msg_ids is not valid JSON');
      expectError(await matches(member, { msg_ids: [running], narrow: [{ operator: 'search', operand: '' }] }), 400, 'BAD_REQUEST', 'Invalid narrow operand: search cannot be blank');
      expect(expectSuccess(await matches(member, { msg_ids: [2 ** 40, -1], narrow: [] })).messages).toEqual({});
      await expectCallersRefused((options) => matches(member, { msg_ids: [running], narrow: [] }, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('POST /messages/flags/narrow', () => {
    const flagNarrow = (user: TestUser, form: Record<string, unknown>, options: { subdomain: string; auth?: Credentials } = as(user)) => system.api.post('/messages/flags/narrow', form as never, options);
    const isRead = async (user: TestUser, messageId: number) =>
      ((await system.db.userMessage.findUniqueOrThrow({ where: { userId_messageId: { userId: user.id, messageId } } })).flags & 1) === 1;

    it('changes a flag on a window of a narrow, answers the counts and tells the caller’s clients', async () => {
      const recipes = [inKitchen, { operator: 'topic', operand: 'recipes' }];
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['update_message_flags'] });
      const body = expectSuccess(await flagNarrow(member, { anchor: 'oldest', num_before: 0, num_after: 10, narrow: JSON.stringify(recipes), op: 'add', flag: 'read' }));
      expectMatchesOpenApi('post', '/messages/flags/narrow', body);
      expect(body).toEqual({
        result: 'success',
        msg: '',
        processed_count: 2,
        updated_count: 2,
        first_processed_id: running,
        last_processed_id: flour,
        found_oldest: true,
        found_newest: true,
        ignored_because_not_subscribed_channels: [],
      });
      expect(await isRead(member, running)).toBe(true);
      expect(await isRead(friend, bakingLink)).toBe(false); // only the caller's rows
      const [event] = await queue.waitFor('update_message_flags');
      expect(event).toMatchObject({ op: 'add', flag: 'read', messages: [running, flour], all: false });
      // Again: processed, nothing updated.
      const again = expectSuccess(await flagNarrow(member, { anchor: 'oldest', num_before: 0, num_after: 10, narrow: JSON.stringify(recipes), op: 'add', flag: 'read' }));
      expect(again).toMatchObject({ processed_count: 2, updated_count: 0 });
    });

    it('walks batches from an anchor, with a search, and stars', async () => {
      const first = expectSuccess(await flagNarrow(member, { anchor: 'newest', num_before: 2, num_after: 0, narrow: JSON.stringify([{ operator: 'search', operand: 'bread' }]), op: 'add', flag: 'starred' }));
      expect(first).toMatchObject({ processed_count: 2, updated_count: 2, first_processed_id: dm, last_processed_id: groupDm, found_oldest: false, found_newest: true });
      const next = expectSuccess(
        await flagNarrow(member, { anchor: String(dm), include_anchor: false, num_before: 10, num_after: 0, narrow: JSON.stringify([{ operator: 'search', operand: 'bread' }]), op: 'add', flag: 'starred' }),
      );
      expect(next).toMatchObject({ processed_count: 3, updated_count: 3, first_processed_id: running, last_processed_id: bakingLink, found_oldest: true });
      expect(await ids(member, [{ operator: 'is', operand: 'starred' }])).toEqual([running, flour, bakingLink, dm, groupDm]);
      const empty = expectSuccess(await flagNarrow(member, { anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([{ operator: 'search', operand: 'nothingmatches' }]), op: 'remove', flag: 'starred' }));
      expect(empty).toMatchObject({ processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null, found_oldest: true, found_newest: true });
    });

    it('refuses bad input with Zulip’s errors, changing nothing', async () => {
      const form = { anchor: 'oldest', num_before: 0, num_after: 10, narrow: '[]', op: 'add', flag: 'read' };
      const unread = await send(friend, { type: 'stream', to: 'kitchen', topic: 'untouched', content: 'still unread' });
      expectError(await flagNarrow(member, { ...form, flag: 'mentioned' }), 400, 'BAD_REQUEST', "Flag not editable: 'mentioned'");
      expectError(await flagNarrow(member, { ...form, flag: 'shiny' }), 400, 'BAD_REQUEST', "Invalid flag: 'shiny'");
      expectError(await flagNarrow(member, { ...form, op: 'flip' }), 400, 'BAD_REQUEST', 'Invalid op');
      expectError(await flagNarrow(member, { ...form, anchor: 'sideways' }), 400, 'BAD_REQUEST', 'Invalid anchor');
      expectError(await flagNarrow(member, { ...form, num_before: 1, include_anchor: false }), 400, 'BAD_REQUEST', 'The anchor can only be excluded at an end of the range');
      expectError(await flagNarrow(member, { ...form, num_after: -1 }), 400, 'BAD_REQUEST', 'num_after is too small');
      expectError(await flagNarrow(member, { ...form, narrow: '[{"operator":"channel","operand":"vault"}]' }), 400, 'BAD_REQUEST', 'Invalid narrow operand: unknown channel vault');
      const { anchor: _anchor, ...noAnchor } = form;
      expectError(await flagNarrow(member, noAnchor), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'anchor' argument", { var_name: 'anchor' });
      const { num_before: _numBefore, ...noBefore } = form;
      expectError(await flagNarrow(member, noBefore), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'num_before' argument", { var_name: 'num_before' });
      expect(await isRead(member, unread)).toBe(false);
      await expectCallersRefused((options) => flagNarrow(member, form, options), { subdomain, member, outsider, deactivated });
      expect(await isRead(member, unread)).toBe(false);
    });
  });
});

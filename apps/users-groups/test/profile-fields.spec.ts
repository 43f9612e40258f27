import type { ClientEvent } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import {
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type EventRecorder,
  type FormValue,
  type TestUser,
} from '@teamchat/testing';

const FIELDS_CHANGED = 'event.users-groups.custom_profile_fields_changed.v1';
const REALM_USER = 'event.users-groups.realm_user_changed.v1';

interface Field {
  id: number;
  name: string;
  type: number;
  hint: string;
  field_data: string;
  order: number;
  required: boolean;
  editable_by_user: boolean;
  display_in_profile_summary?: boolean;
}

const SELECT_OPTIONS = { vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } };

describe('custom profile fields', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string, outsiderSubdomain: string;
  let realmId: number;
  let admin: TestUser, member: TestUser, guest: TestUser, deactivated: TestUser, bot: TestUser, outsider: TestUser;

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const create = (user: TestUser, form: Record<string, FormValue>, sub = subdomain) =>
    system.api.post<{ id: number }>('/realm/profile_fields', form, as(user, sub));
  const createOk = async (form: Record<string, FormValue>) => expectSuccess(await create(admin, form)).id;
  const list = async (user: TestUser = member) =>
    expectSuccess(await system.api.get<{ custom_fields: Field[] }>('/realm/profile_fields', {}, as(user))).custom_fields;
  const fieldRows = () => system.db.customProfileField.findMany({ orderBy: { id: 'asc' } });
  const valueRows = () => system.db.customProfileFieldValue.findMany({ orderBy: { id: 'asc' } });
  const patch = (user: TestUser, id: number | string, form: Record<string, FormValue>) => system.api.patch(`/realm/profile_fields/${id}`, form, as(user));
  const activeIds = async () =>
    (await system.db.user.findMany({ where: { realmId, isActive: true }, select: { id: true }, orderBy: { id: 'asc' } })).map((user) => user.id);
  const expectEventMatchesOpenApi = (event: Record<string, unknown>) =>
    expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...event }] });
  const setOwn = (user: TestUser, data: unknown) => system.api.patch('/users/me/profile_data', { data: data as FormValue }, as(user));

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'profile-fields' });
    ({ admin, member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    deactivated = await factory.user(org.realm, { isActive: false });
    bot = await factory.user(org.realm, { isBot: true, botOwnerId: member.id });
    const elsewhere = await factory.organization({ subdomain: 'elsewhere-fields' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    events = await system.recordEvents();
  });
  afterAll(() => system.stop());
  beforeEach(async () => {
    await system.db.customProfileField.deleteMany({ where: { realmId } });
    events.clear();
  });

  describe('POST /realm/profile_fields and GET /realm/profile_fields', () => {
    it('creates every field type, in order, telling every active user the whole list', async () => {
      const short = await createOk({ name: ' Phone ', hint: 'Your work phone', field_type: 1, required: true, editable_by_user: false });
      const body = expectSuccess(await create(admin, { name: 'Biography', field_type: 2 }));
      expectMatchesOpenApi('post', '/realm/profile_fields', body);
      const select = await createOk({ name: 'Editor', field_type: 3, field_data: SELECT_OPTIONS, display_in_profile_summary: true });
      const date = await createOk({ name: 'Birthday', field_type: 4 });
      const url = await createOk({ name: 'Website', field_type: 5, display_in_profile_summary: true });
      const users = await createOk({ name: 'Mentor', field_type: 6 });
      const github = await createOk({ field_type: 7, field_data: { subtype: 'github' } });
      const custom = await createOk({ name: 'Chess', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://chess.test/@/%(username)s' } });
      const pronouns = await createOk({ name: 'Pronouns', field_type: 8, hint: 'What pronouns should people use?' });

      const listed = expectSuccess(await system.api.get<{ custom_fields: Field[] }>('/realm/profile_fields', {}, as(guest)));
      expectMatchesOpenApi('get', '/realm/profile_fields', listed);
      const base = { hint: '', field_data: '', required: false, editable_by_user: true };
      expect(listed.custom_fields).toEqual([
        { ...base, id: short, name: 'Phone', type: 1, hint: 'Your work phone', order: short, required: true, editable_by_user: false },
        { ...base, id: body.id, name: 'Biography', type: 2, order: body.id },
        { ...base, id: select, name: 'Editor', type: 3, field_data: JSON.stringify(SELECT_OPTIONS), order: select, display_in_profile_summary: true },
        { ...base, id: date, name: 'Birthday', type: 4, order: date },
        { ...base, id: url, name: 'Website', type: 5, order: url, display_in_profile_summary: true },
        { ...base, id: users, name: 'Mentor', type: 6, order: users },
        { ...base, id: github, name: 'GitHub username', type: 7, field_data: '{"subtype":"github"}', order: github },
        { ...base, id: custom, name: 'Chess', type: 7, field_data: '{"subtype":"custom","url_pattern":"https://chess.test/@/%(username)s"}', order: custom },
        { ...base, id: pronouns, name: 'Pronouns', type: 8, hint: 'What pronouns should people use?', order: pronouns },
      ]);

      const sent = await events.waitFor<ClientEvent>(FIELDS_CHANGED, 9);
      const last = sent[8];
      expect(last.realmId).toBe(realmId);
      expect([...last.users].sort((a, b) => a - b)).toEqual(await activeIds());
      expect(last.users).not.toContain(deactivated.id);
      expect(last.event).toEqual({ type: 'custom_profile_fields', fields: listed.custom_fields });
      expectEventMatchesOpenApi(last.event);

      const state = expectSuccess(await system.api.post<{ custom_profile_fields: Field[] }>('/register', { fetch_event_types: ['custom_profile_fields'] }, as(member)));
      expect(state.custom_profile_fields).toEqual(listed.custom_fields);
      expect(expectSuccess(await system.api.get<{ custom_fields: Field[] }>('/realm/profile_fields', {}, as(outsider, outsiderSubdomain))).custom_fields).toEqual([]);
    });

    it.each([
      [{ name: '   ', field_type: 1 }, 'Label cannot be blank.'],
      [{ name: 'x'.repeat(41), field_type: 1 }, 'name is too long (limit: 40 characters)'],
      [{ name: 'Hinted', hint: 'h'.repeat(81), field_type: 1 }, 'hint is too long (limit: 80 characters)'],
      [{ name: 'Odd', field_type: 99 }, 'Invalid field type.'],
      [{ name: 'Empty list', field_type: 3, field_data: {} }, 'Field must have at least one choice.'],
      [{ name: 'Twins', field_type: 3, field_data: { a: { text: 'Same', order: '1' }, b: { text: 'Same', order: '2' } } }, 'Field must not have duplicate choices.'],
      [{ name: 'Blank key', field_type: 3, field_data: { ' ': { text: 'A', order: '1' } } }, "'value' cannot be blank."],
      [{ name: 'No order', field_type: 3, field_data: { a: { text: 'A' } } }, 'order key is missing from field_data'],
      [{ name: 'Extra', field_type: 3, field_data: { a: { text: 'A', order: '1', colour: 'red' } } }, 'Unexpected arguments: colour'],
      [{ name: 'Bad shape', field_type: 3, field_data: { a: 1 } }, 'field_data contains a value that is not an allowed_type'],
      [{ name: 'Account', field_type: 7, field_data: { subtype: 'myspace' } }, 'Invalid external account type'],
      [{ name: 'Account', field_type: 7, field_data: { subtype: 'custom' } }, 'Custom external account must define URL pattern'],
      [{ name: 'Account', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://x.test/' } }, "URL pattern must contain '%(username)s'."],
      [{ name: 'Account', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'not a url %(username)s' } }, 'field_data["url_pattern"] is not a URL'],
      [{ name: 'Account', field_type: 7, field_data: {} }, 'subtype key is missing from field_data'],
      [{ name: 'Long', field_type: 2, display_in_profile_summary: true }, 'Field type not supported for display in profile summary.'],
      [{ name: 'People', field_type: 6, display_in_profile_summary: true }, 'Field type not supported for display in profile summary.'],
    ])('refuses %j with Zulip’s error, creating nothing', async (form, msg) => {
      expectError(await create(admin, form as Record<string, FormValue>), 400, 'BAD_REQUEST', msg);
      expect(await fieldRows()).toEqual([]);
      expect(await events.publishedByNow(FIELDS_CHANGED)).toEqual([]);
    });

    it('allows two fields in profile summaries, and one label once per organization', async () => {
      await createOk({ name: 'A', field_type: 1, display_in_profile_summary: true });
      await createOk({ name: 'B', field_type: 1, display_in_profile_summary: true });
      const before = await fieldRows();
      expectError(await create(admin, { name: 'C', field_type: 1, display_in_profile_summary: true }), 400, 'BAD_REQUEST', 'Only 2 custom profile fields can be displayed in the profile summary.');
      expectError(await create(admin, { name: 'A', field_type: 4 }), 400, 'BAD_REQUEST', 'A field with that label already exists.');
      expect(await fieldRows()).toEqual(before);
      // A default external account takes Zulip's label, so a second one is refused.
      expectSuccess(await create(admin, { field_type: 7, field_data: { subtype: 'github' } }));
      expectError(await create(admin, { field_type: 7, field_data: { subtype: 'github' } }), 400, 'BAD_REQUEST', 'A field with that label already exists.');
      expect((await fieldRows()).length).toBe(before.length + 1);
      expectSuccess(await create(outsider, { name: 'A', field_type: 1 }, outsiderSubdomain));
      await system.db.customProfileField.deleteMany({ where: { realm: { subdomain: outsiderSubdomain } } });
    });

    it('refuses everyone but administrators on every write, and callers without valid credentials', async () => {
      const id = await createOk({ name: 'Team', field_type: 1 });
      const moderator = await factory.user({ id: realmId }, { role: Role.MODERATOR });
      events.clear();
      const before = await fieldRows();
      for (const user of [member, moderator, guest]) {
        const refused = (res: { status: number; body: unknown; headers: Headers }) =>
          expectError(res as never, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
        refused(await create(user, { name: 'Mine', field_type: 1 }));
        refused(await patch(user, id, { name: 'Renamed' }));
        refused(await system.api.delete(`/realm/profile_fields/${id}`, {}, as(user)));
        refused(await system.api.patch('/realm/profile_fields', { order: [id] }, as(user)));
      }
      expect(await fieldRows()).toEqual(before);
      expect(await events.publishedByNow(FIELDS_CHANGED)).toEqual([]);
      await expectCallersRefused((options) => system.api.get('/realm/profile_fields', {}, options), { subdomain, member, outsider, deactivated });
      await expectCallersRefused((options) => system.api.post('/realm/profile_fields', { name: 'x', field_type: 1 }, options), { subdomain, member, outsider, deactivated });
      await expectCallersRefused((options) => system.api.patch('/users/me/profile_data', { data: [] }, options), { subdomain, member, outsider, deactivated });
    });
  });

  describe('PATCH/DELETE /realm/profile_fields/{field_id} and PATCH /realm/profile_fields', () => {
    it('changes a field’s label, hint, flags and options; removed options clear the values that chose them', async () => {
      const select = await createOk({ name: 'Editor', field_type: 3, field_data: SELECT_OPTIONS });
      expectSuccess(await setOwn(member, [{ id: select, value: 'emacs' }]));
      expectSuccess(await setOwn(admin, [{ id: select, value: 'vim' }]));
      events.clear();
      const options = { vim: { text: 'Vim', order: '1' }, nano: { text: 'Nano', order: '2' } };
      expectSuccess(await patch(admin, select, { name: ' Favourite editor ', hint: 'Pick one', required: true, editable_by_user: false, display_in_profile_summary: true, field_data: options }));
      const [field] = await list();
      expect(field).toEqual({
        id: select, name: 'Favourite editor', type: 3, hint: 'Pick one', field_data: JSON.stringify(options), order: select,
        required: true, editable_by_user: false, display_in_profile_summary: true,
      });
      const [fieldsEvent] = await events.waitFor<ClientEvent>(FIELDS_CHANGED);
      expect(fieldsEvent.event).toEqual({ type: 'custom_profile_fields', fields: [field] });
      const [cleared] = await events.waitFor<ClientEvent>(REALM_USER);
      expect(cleared.event).toEqual({ type: 'realm_user', op: 'update', person: { user_id: member.id, custom_profile_field: { id: select, value: null } } });
      expectEventMatchesOpenApi(cleared.event);
      expect((await valueRows()).map((row) => [row.userId, row.value])).toEqual([[admin.id, 'vim']]);
    });

    it('lets a default external account field change only where it is shown', async () => {
      const github = await createOk({ field_type: 7, field_data: { subtype: 'github' } });
      expectError(await patch(admin, github, { name: 'My GitHub' }), 400, 'BAD_REQUEST', 'Default custom field cannot be updated.');
      expectSuccess(await patch(admin, github, { display_in_profile_summary: true, name: 'GitHub username' }));
      expect((await list())[0]).toMatchObject({ name: 'GitHub username', display_in_profile_summary: true });
    });

    it('refuses bad changes, unknown fields and another organization’s, changing nothing', async () => {
      const a = await createOk({ name: 'A', field_type: 1, display_in_profile_summary: true });
      const b = await createOk({ name: 'B', field_type: 1, display_in_profile_summary: true });
      const c = await createOk({ name: 'C', field_type: 2 });
      const theirs = expectSuccess(await create(outsider, { name: 'Theirs', field_type: 1 }, outsiderSubdomain)).id;
      events.clear();
      const before = await fieldRows();
      expectError(await patch(admin, a, { name: 'B' }), 400, 'BAD_REQUEST', 'A field with that label already exists.');
      expectError(await patch(admin, a, { name: ' ' }), 400, 'BAD_REQUEST', 'Label cannot be blank.');
      expectError(await patch(admin, c, { display_in_profile_summary: true }), 400, 'BAD_REQUEST', 'Only 2 custom profile fields can be displayed in the profile summary.');
      expectSuccess(await patch(admin, b, { display_in_profile_summary: false }));
      expectError(await patch(admin, c, { display_in_profile_summary: true }), 400, 'BAD_REQUEST', 'Field type not supported for display in profile summary.');
      for (const id of [theirs, 999999, 2147483648]) {
        expectError(await patch(admin, id, { name: 'X' }), 400, 'BAD_REQUEST', `Field id ${id} not found.`);
        expectError(await system.api.delete(`/realm/profile_fields/${id}`, {}, as(admin)), 400, 'BAD_REQUEST', `Field id ${id} not found.`);
      }
      const after = await fieldRows();
      expect(after.filter((row) => row.id !== b)).toEqual(before.filter((row) => row.id !== b));
      await system.db.customProfileField.deleteMany({ where: { id: theirs } });
    });

    it('reorders when every field is named, and deletes a field with its values', async () => {
      const a = await createOk({ name: 'A', field_type: 1 });
      const b = await createOk({ name: 'B', field_type: 1 });
      events.clear();
      expectError(await system.api.patch('/realm/profile_fields', { order: [a] }, as(admin)), 400, 'BAD_REQUEST', 'Invalid order mapping.');
      expect((await list()).map((field) => field.id)).toEqual([a, b]);
      expect(await events.publishedByNow(FIELDS_CHANGED)).toEqual([]);
      expectSuccess(await system.api.patch('/realm/profile_fields', { order: [b, a] }, as(admin)));
      expect((await list()).map((field) => [field.id, field.order])).toEqual([[b, 0], [a, 1]]);
      const [reordered] = await events.waitFor<ClientEvent>(FIELDS_CHANGED);
      expect((reordered.event.fields as Field[]).map((field) => field.id)).toEqual([b, a]);

      expectSuccess(await setOwn(member, [{ id: a, value: 'kept?' }]));
      events.clear();
      expectSuccess(await system.api.delete(`/realm/profile_fields/${a}`, {}, as(admin)));
      const [deleted] = await events.waitFor<ClientEvent>(FIELDS_CHANGED);
      expect((deleted.event.fields as Field[]).map((field) => field.id)).toEqual([b]);
      expect(await system.db.customProfileFieldValue.count({ where: { fieldId: a } })).toBe(0);
    });
  });

  describe('PATCH and DELETE /users/me/profile_data', () => {
    it('sets and clears the caller’s own values, checked by type, each change announced', async () => {
      const text = await createOk({ name: 'Team', field_type: 1 });
      const date = await createOk({ name: 'Birthday', field_type: 4 });
      const select = await createOk({ name: 'Editor', field_type: 3, field_data: SELECT_OPTIONS });
      const mentor = await createOk({ name: 'Mentor', field_type: 6 });
      const link = await createOk({ name: 'Website', field_type: 5 });
      events.clear();
      expectSuccess(await setOwn(member, [{ id: text, value: 'Core **team**' }, { id: date, value: '1990-02-28' }, { id: select, value: 'vim' }, { id: mentor, value: [admin.id] }, { id: link, value: 'https://example.com/me' }]));
      const shown = expectSuccess(await system.api.get<{ user: { profile_data: Record<string, unknown> } }>(`/users/${member.id}`, { include_custom_profile_fields: true }, as(guest))).user.profile_data;
      expect(shown).toEqual({
        [text]: { value: 'Core **team**', rendered_value: '<p>Core <strong>team</strong></p>' },
        [date]: { value: '1990-02-28' },
        [select]: { value: 'vim' },
        [mentor]: { value: JSON.stringify([admin.id]) },
        [link]: { value: 'https://example.com/me' },
      });
      const updates = await events.waitFor<ClientEvent>(REALM_USER, 5);
      expect(updates[0].event).toEqual({
        type: 'realm_user', op: 'update',
        person: { user_id: member.id, custom_profile_field: { id: text, value: 'Core **team**', rendered_value: '<p>Core <strong>team</strong></p>' } },
      });
      expect([...updates[0].users].sort((a, b) => a - b)).toEqual(await activeIds());

      const before = await valueRows();
      for (const [data, msg] of [
        [[{ id: date, value: '1990-02-30' }], 'Birthday is not a date'],
        [[{ id: select, value: 'ed' }], "'ed' is not a valid choice for 'Editor'."],
        [[{ id: mentor, value: [999999] }], 'Invalid user ID: 999999'],
        [[{ id: mentor, value: [bot.id] }], `User with ID ${bot.id} is a bot`],
        [[{ id: link, value: 'not a url' }], 'Website is not a URL'],
        [[{ id: text, value: 'x'.repeat(51) }], 'Team is too long (limit: 50 characters)'],
        [[{ id: text, value: 'ok' }, { id: 999999, value: 'x' }], 'Field id 999999 not found.'],
      ] as [unknown, string][]) {
        expectError(await setOwn(member, data), 400, 'BAD_REQUEST', msg);
      }
      expect(await valueRows()).toEqual(before);

      events.clear();
      expectSuccess(await system.api.delete('/users/me/profile_data', { data: [date, select] }, as(member)));
      const removed = await events.waitFor<ClientEvent>(REALM_USER, 2);
      expect(removed.map((event) => (event.event.person as { custom_profile_field: unknown }).custom_profile_field)).toEqual([
        { id: date, value: null },
        { id: select, value: null },
      ]);
      expect((await valueRows()).filter((row) => row.userId === member.id).map((row) => row.fieldId).sort()).toEqual([text, mentor, link].sort());
    });

    it('refuses fields not editable by users to everyone but administrators, bots, and another organization’s fields', async () => {
      const locked = await createOk({ name: 'Employee id', field_type: 1, editable_by_user: false });
      const theirs = expectSuccess(await create(outsider, { name: 'Theirs', field_type: 1 }, outsiderSubdomain)).id;
      const notAllowed = 'You are not allowed to change this field. Contact an administrator to update it.';
      expectError(await setOwn(member, [{ id: locked, value: 'E1' }]), 400, 'BAD_REQUEST', notAllowed);
      expectError(await system.api.delete('/users/me/profile_data', { data: [locked] }, as(member)), 400, 'BAD_REQUEST', notAllowed);
      expectError(await setOwn(member, [{ id: theirs, value: 'x' }]), 400, 'BAD_REQUEST', `Field id ${theirs} not found.`);
      expectError(await setOwn(bot, [{ id: locked, value: 'x' }]), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
      expect(await system.db.customProfileFieldValue.count({ where: { fieldId: { in: [locked, theirs] } } })).toBe(0);
      expectSuccess(await setOwn(admin, [{ id: locked, value: 'E2' }]));
      expect((await valueRows()).map((row) => [row.userId, row.value])).toEqual([[admin.id, 'E2']]);
      await system.db.customProfileField.deleteMany({ where: { id: theirs } });
    });
  });
});

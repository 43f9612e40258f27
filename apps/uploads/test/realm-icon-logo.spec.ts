import type { ClientEvent } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import {
  EventQueueClient,
  Factory,
  TestSystem,
  expectCallersRefused,
  expectMatchesOpenApi,
  expectSuccess,
  type ApiResponse,
  type EventRecorder,
  type QueueEvent,
  type TestUser,
} from '@teamchat/testing';
import sharp from 'sharp';
import { bytes, multipart, send, type RawResponse } from './http';

const REALM_CHANGED = 'event.users-groups.realm_changed.v1';
const MiB = 1024 * 1024;

type Body = Record<string, unknown>;
type Part = Parameters<typeof multipart>[0][number];

/** A PNG of `width`x`height` in one colour, made here. */
const png = (width: number, height: number, colour = { r: 30, g: 90, b: 200 }) =>
  sharp({ create: { width, height, channels: 4, background: { ...colour, alpha: 1 } } }).png().toBuffer();
const jpeg = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 240, g: 200, b: 10 } } }).jpeg().toBuffer();

/**
 * The organization's icon and wide logos (zerver/views/realm_icon.py, realm_logo.py): POST and
 * DELETE /realm/icon and /realm/logo through the gateway to the uploads service, the `realms`
 * row users-groups keeps, the `realm` update_dict events, and the images served at Zulip's paths.
 */
describe('organization icon and logos: POST/DELETE /realm/icon and /realm/logo', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string, elsewhereSubdomain: string;
  let realmId: number, elsewhereId: number;
  let owner: TestUser, admin: TestUser, moderator: TestUser, member: TestUser, guest: TestUser, gone: TestUser;
  let outsider: TestUser, outsiderMember: TestUser;
  let everyoneActive: number[];

  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
  const asApi = (raw: RawResponse): ApiResponse<unknown> =>
    ({ status: raw.status, body: raw.json(), headers: new Headers(raw.headers as Record<string, string>) }) as unknown as ApiResponse<unknown>;
  const outcome = (res: RawResponse) => ({ status: res.status, body: res.json() });
  const refused = (msg: string, code = 'BAD_REQUEST') => ({ status: 400, body: { result: 'error', msg, code } });
  const file = (content: Buffer, type = 'image/png', filename = 'image.png'): Part => ({ field: 'file', filename, type, content });
  const post = (path: string, user: TestUser | undefined, parts: Part[], sub = subdomain) => {
    const { body, headers } = multipart(parts);
    return send(system, 'POST', `/api/v1/realm/${path}`, { subdomain: sub, auth: user, headers, body });
  };
  const uploadIcon = (user: TestUser | undefined, parts: Part[], sub = subdomain) => post('icon', user, parts, sub);
  const uploadLogo = (user: TestUser | undefined, night: string | undefined, parts: Part[], sub = subdomain) =>
    post('logo', user, [...(night === undefined ? [] : [{ field: 'night', content: Buffer.from(night) }]), ...parts], sub);
  const deleteIcon = (user: TestUser | undefined, sub = subdomain) => send(system, 'DELETE', '/api/v1/realm/icon', { subdomain: sub, auth: user });
  const deleteLogo = (user: TestUser | undefined, night: string, sub = subdomain) => {
    const body = Buffer.from(`night=${encodeURIComponent(night)}`);
    return send(system, 'DELETE', '/api/v1/realm/logo', {
      subdomain: sub,
      auth: user,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': body.length },
      body,
    });
  };
  const fetchImage = (url: string, sub = subdomain) => send(system, 'GET', url, { subdomain: sub });
  const row = (id = realmId) => system.db.realm.findUniqueOrThrow({ where: { id } });
  const images = async (id = realmId) => {
    const r = await row(id);
    return { iconSource: r.iconSource, iconVersion: r.iconVersion, logoSource: r.logoSource, logoVersion: r.logoVersion, nightLogoSource: r.nightLogoSource, nightLogoVersion: r.nightLogoVersion };
  };
  const register = async (user: TestUser, sub = subdomain) =>
    expectSuccess(await system.api.post<Body>('/register', { fetch_event_types: ['realm'] }, { auth: user, subdomain: sub }));
  const realmEvents = async (count: number) => events.waitFor<{ realmId: number; users: number[]; event: ClientEvent['event'] }>(REALM_CHANGED, count);

  /** Polls a queue without acknowledging until `count` events are pending, each answer checked against the document. */
  async function pollUntil(queue: EventQueueClient, count: number): Promise<QueueEvent[]> {
    for (let attempt = 0; ; attempt++) {
      const body = expectSuccess(await queue.request({ dontBlock: true }));
      expectMatchesOpenApi('get', '/events', body);
      const pending = body.events.filter((event) => event.type !== 'heartbeat');
      if (pending.length >= count || attempt > 100) return pending;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'brand', name: 'Brand Org' });
    ({ owner, admin, member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    moderator = await factory.user(org.realm, { role: Role.MODERATOR });
    gone = await factory.user(org.realm, { role: Role.ADMINISTRATOR, isActive: false });
    everyoneActive = sorted([owner.id, admin.id, moderator.id, member.id, guest.id]);
    const elsewhere = await factory.organization({ subdomain: 'brand-elsewhere' });
    elsewhereSubdomain = elsewhere.subdomain;
    elsewhereId = elsewhere.id;
    outsider = await factory.user(elsewhere, { role: Role.ADMINISTRATOR });
    outsiderMember = await factory.user(elsewhere, { role: Role.MEMBER });
    events = await system.recordEvents();
  });
  afterAll(() => system.stop());
  beforeEach(() => events.clear());

  describe('the icon', () => {
    it('starts at the default, as register and /server_settings show', async () => {
      expect(await images()).toEqual({ iconSource: 'G', iconVersion: 1, logoSource: 'D', logoVersion: 1, nightLogoSource: 'D', nightLogoVersion: 1 });
      const state = await register(member);
      expect(state.realm_icon_source).toBe('G');
      expect(state.realm_icon_url).toMatch(/\/static\/images\/logo\/zulip-icon-128x128\.png$/);
      expect(state).toMatchObject({ max_icon_file_size_mib: 5, max_logo_file_size_mib: 5 });
    });

    it('an administrator uploads one: 100x100 PNG cropped to the centre, served at Zulip path, announced to every active user, in register', async () => {
      const queue = await EventQueueClient.register(system.api, { auth: guest, subdomain }, { event_types: ['realm'] });
      const res = await uploadIcon(admin, [file(await jpeg(300, 120), 'image/jpeg', 'icon.jpg')]);
      const body = outcome(res).body as Body;
      expect(outcome(res)).toEqual({ status: 200, body: { result: 'success', msg: '', icon_url: `/user_avatars/${realmId}/realm/icon.png?version=2` } });
      expectMatchesOpenApi('post', '/realm/icon', body);
      expect(await images()).toMatchObject({ iconSource: 'U', iconVersion: 2 });

      const served = await fetchImage(body.icon_url as string);
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(await sharp(served.body).metadata()).toMatchObject({ format: 'png', width: 100, height: 100 });
      // The original is kept, never served.
      expect((await fetchImage(`/user_avatars/${realmId}/realm/icon.original`)).status).toBe(404);

      const [published] = await realmEvents(1);
      expect(published.realmId).toBe(realmId);
      expect(sorted(published.users)).toEqual(everyoneActive);
      const expected = { type: 'realm', op: 'update_dict', property: 'icon', data: { icon_url: body.icon_url, icon_source: 'U' } };
      expect(published.event).toEqual(expected);
      const [delivered] = await pollUntil(queue, 1);
      expect(delivered).toMatchObject(expected);

      expect(await register(member)).toMatchObject({ realm_icon_url: body.icon_url, realm_icon_source: 'U' });
      const settings = expectSuccess(await system.api.get<Body>('/server_settings', {}, { subdomain }));
      expect(settings.realm_icon).toMatch(new RegExp(`^https?://[^/]+/user_avatars/${realmId}/realm/icon\\.png\\?version=2$`));
    });

    it('a second upload replaces the image and moves the version on', async () => {
      const res = await uploadIcon(owner, [file(await png(40, 40, { r: 250, g: 0, b: 0 }))]);
      expect(outcome(res).body).toMatchObject({ icon_url: `/user_avatars/${realmId}/realm/icon.png?version=3` });
      const served = await fetchImage(`/user_avatars/${realmId}/realm/icon.png?version=3`);
      // Scaled up to 100x100 as Zulip's resize_avatar does; red now.
      const { data } = await sharp(served.body).raw().toBuffer({ resolveWithObject: true });
      expect([data[0], data[1], data[2]]).toEqual([250, 0, 0]);
      expect((await sharp(served.body).metadata()).width).toBe(100);
    });

    it('DELETE goes back to the default, answers its URL, announces it; the file stays (as in Zulip)', async () => {
      const res = await deleteIcon(admin);
      const body = outcome(res).body as Body;
      expect(res.status).toBe(200);
      expectMatchesOpenApi('delete', '/realm/icon', body);
      expect(body.icon_url).toMatch(/\/static\/images\/logo\/zulip-icon-128x128\.png$/);
      expect(await images()).toMatchObject({ iconSource: 'G', iconVersion: 4 });
      const [published] = await realmEvents(1);
      expect(published.event).toEqual({ type: 'realm', op: 'update_dict', property: 'icon', data: { icon_url: body.icon_url, icon_source: 'G' } });
      expect(await register(guest)).toMatchObject({ realm_icon_url: body.icon_url, realm_icon_source: 'G' });
      expect((await fetchImage(`/user_avatars/${realmId}/realm/icon.png?version=3`)).status).toBe(200);
    });
  });

  describe('the logos', () => {
    it('an administrator uploads the day logo: scaled down to fit 800x100, keeping its proportions; night untouched', async () => {
      const res = await uploadLogo(admin, 'false', [file(await png(2000, 100))]);
      expect(outcome(res)).toEqual({ status: 200, body: { result: 'success', msg: '' } });
      expectMatchesOpenApi('post', '/realm/logo', outcome(res).body);
      expect(await images()).toMatchObject({ logoSource: 'U', logoVersion: 2, nightLogoSource: 'D', nightLogoVersion: 1 });
      const url = `/user_avatars/${realmId}/realm/logo.png?version=2`;
      const served = await fetchImage(url);
      expect(served.status).toBe(200);
      expect(await sharp(served.body).metadata()).toMatchObject({ format: 'png', width: 800, height: 40 });
      const [published] = await realmEvents(1);
      expect(sorted(published.users)).toEqual(everyoneActive);
      expect(published.event).toEqual({ type: 'realm', op: 'update_dict', property: 'logo', data: { logo_url: url, logo_source: 'U' } });
      expect(await register(member)).toMatchObject({ realm_logo_url: url, realm_logo_source: 'U', realm_night_logo_source: 'D' });
    });

    it('with night=true, the night logo: a small image is not enlarged; its own event and URL', async () => {
      const queue = await EventQueueClient.register(system.api, { auth: member, subdomain }, { event_types: ['realm'] });
      const res = await uploadLogo(owner, 'true', [file(await png(60, 30), 'image/png', 'night.png')]);
      expect(outcome(res)).toEqual({ status: 200, body: { result: 'success', msg: '' } });
      expect(await images()).toMatchObject({ logoSource: 'U', logoVersion: 2, nightLogoSource: 'U', nightLogoVersion: 2 });
      const url = `/user_avatars/${realmId}/realm/night_logo.png?version=2`;
      expect(await sharp((await fetchImage(url)).body).metadata()).toMatchObject({ width: 60, height: 30 });
      const expected = { type: 'realm', op: 'update_dict', property: 'night_logo', data: { night_logo_url: url, night_logo_source: 'U' } };
      expect((await realmEvents(1))[0].event).toEqual(expected);
      expect((await pollUntil(queue, 1))[0]).toMatchObject(expected);
      expect(await register(member)).toMatchObject({ realm_night_logo_url: url, realm_night_logo_source: 'U' });
    });

    it('DELETE with night (a url-encoded body or the query) goes back to that default logo only', async () => {
      const night = await deleteLogo(admin, 'true');
      expect(outcome(night)).toEqual({ status: 200, body: { result: 'success', msg: '' } });
      expectMatchesOpenApi('delete', '/realm/logo', outcome(night).body);
      expect(await images()).toMatchObject({ logoSource: 'U', logoVersion: 2, nightLogoSource: 'D', nightLogoVersion: 3 });
      const [published] = await realmEvents(1);
      expect(published.event).toEqual({
        type: 'realm',
        op: 'update_dict',
        property: 'night_logo',
        data: { night_logo_url: '/static/images/logo/zulip-org-logo.svg?version=0', night_logo_source: 'D' },
      });
      events.clear();
      const day = await send(system, 'DELETE', '/api/v1/realm/logo?night=false', { subdomain, auth: admin });
      expect(day.status).toBe(200);
      expect(await images()).toMatchObject({ logoSource: 'D', logoVersion: 3, nightLogoSource: 'D', nightLogoVersion: 3 });
      expect((await realmEvents(1))[0].event).toMatchObject({ property: 'logo', data: { logo_source: 'D' } });
    });

    it('needs a valid night, as Zulip does', async () => {
      const image = [file(await png(10, 10))];
      expect(outcome(await uploadLogo(admin, undefined, image))).toEqual({
        status: 400,
        body: { result: 'error', msg: "Missing 'night' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'night' },
      });
      expect(outcome(await uploadLogo(admin, 'maybe', image))).toEqual(refused('night is not valid JSON'));
      expect(outcome(await deleteLogo(admin, '1'))).toEqual(refused('night is not a boolean'));
      expect(await images()).toMatchObject({ logoVersion: 3, nightLogoVersion: 3 });
      expect(await events.publishedByNow(REALM_CHANGED)).toEqual([]);
    });
  });

  describe('bad files', () => {
    it('refuses no file, two files, a file that is not an image, an image that does not decode, and one too large; nothing changes', async () => {
      const before = await images();
      const image = await png(20, 20);
      expect(outcome(await uploadIcon(admin, []))).toEqual(refused('You must upload exactly one icon.'));
      expect(outcome(await uploadIcon(admin, [file(image), file(image)]))).toEqual(refused('You must upload exactly one icon.'));
      expect(outcome(await uploadLogo(admin, 'false', []))).toEqual(refused('You must upload exactly one logo.'));
      expect(outcome(await send(system, 'POST', '/api/v1/realm/icon', { subdomain, auth: admin }))).toEqual(refused('You must upload exactly one icon.'));
      expect(outcome(await uploadIcon(admin, [file(Buffer.from('hello'), 'text/plain', 'notes.txt')]))).toEqual(refused('Invalid image format', 'BAD_IMAGE'));
      expect(outcome(await uploadLogo(admin, 'true', [file(Buffer.from('<svg/>'), 'application/pdf', 'logo.pdf')]))).toEqual(
        refused('Invalid image format', 'BAD_IMAGE'),
      );
      expect(outcome(await uploadIcon(admin, [file(Buffer.from('not a png at all'), 'image/png', 'fake.png')]))).toEqual(
        refused('Could not decode image; did you upload an image file?', 'BAD_IMAGE'),
      );
      const big = [{ field: 'file', filename: 'big.png', type: 'image/png', content: bytes(5 * MiB + 1) }];
      expect(outcome(await uploadIcon(admin, big))).toEqual(refused('Uploaded file is larger than the allowed limit of 5 MiB'));
      expect(outcome(await uploadLogo(admin, 'false', big))).toEqual(refused('Uploaded file is larger than the allowed limit of 5 MiB'));
      expect(await images()).toEqual(before);
      expect(await events.publishedByNow(REALM_CHANGED)).toEqual([]);
    });
  });

  describe('who may', () => {
    it('refuses moderators, members and guests (Must be an organization administrator), changing nothing', async () => {
      const before = await images();
      const image = [file(await png(20, 20))];
      const notAdmin = { status: 400, body: { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' } };
      for (const user of [moderator, member, guest]) {
        expect(outcome(await uploadIcon(user, image))).toEqual(notAdmin);
        expect(outcome(await deleteIcon(user))).toEqual(notAdmin);
        expect(outcome(await uploadLogo(user, 'false', image))).toEqual(notAdmin);
        expect(outcome(await deleteLogo(user, 'true'))).toEqual(notAdmin);
      }
      // Refused before the parameters are looked at, as require_realm_admin comes first in Zulip.
      expect(outcome(await uploadLogo(member, undefined, image))).toEqual(notAdmin);
      expect(await images()).toEqual(before);
      expect(await events.publishedByNow(REALM_CHANGED)).toEqual([]);
    });

    it('refuses callers without credentials, with a wrong key, of another organization or deactivated', async () => {
      const image = [file(await png(20, 20))];
      const who = { subdomain, member: admin, outsider, deactivated: gone };
      await expectCallersRefused(async ({ subdomain: sub, auth }) => asApi(await uploadIcon(auth as TestUser | undefined, image, sub)), who);
      await expectCallersRefused(async ({ subdomain: sub, auth }) => asApi(await deleteIcon(auth as TestUser | undefined, sub)), who);
      await expectCallersRefused(async ({ subdomain: sub, auth }) => asApi(await uploadLogo(auth as TestUser | undefined, 'false', image, sub)), who);
      await expectCallersRefused(async ({ subdomain: sub, auth }) => asApi(await deleteLogo(auth as TestUser | undefined, 'false', sub)), who);
    });

    it("another organization's administrator changes only their own organization's images", async () => {
      const ours = await images();
      const res = await uploadIcon(outsider, [file(await png(50, 50, { r: 0, g: 200, b: 0 }))], elsewhereSubdomain);
      expect(outcome(res).body).toEqual({ result: 'success', msg: '', icon_url: `/user_avatars/${elsewhereId}/realm/icon.png?version=2` });
      expect(await images(elsewhereId)).toMatchObject({ iconSource: 'U', iconVersion: 2 });
      expect(await images()).toEqual(ours);
      const [published] = await realmEvents(1);
      expect(published.realmId).toBe(elsewhereId);
      expect(sorted(published.users)).toEqual(sorted([outsider.id, outsiderMember.id]));
      // Their file is theirs; ours is where it was.
      const theirs = await fetchImage(`/user_avatars/${elsewhereId}/realm/icon.png?version=2`, elsewhereSubdomain);
      const { data } = await sharp(theirs.body).raw().toBuffer({ resolveWithObject: true });
      expect([data[0], data[1], data[2]]).toEqual([0, 200, 0]);
      const mine = await fetchImage(`/user_avatars/${realmId}/realm/icon.png?version=3`);
      const mineData = (await sharp(mine.body).raw().toBuffer({ resolveWithObject: true })).data;
      expect([mineData[0], mineData[1], mineData[2]]).toEqual([250, 0, 0]);
      expect((await register(member)).realm_icon_source).toBe('G');
    });
  });

  describe('serving', () => {
    it('serves only the resized images, without credentials; other names under realm/ are unknown', async () => {
      expect((await fetchImage(`/user_avatars/${realmId}/realm/logo.png`)).status).toBe(200);
      for (const path of ['realm/logo.original', 'realm/night_logo.original', 'realm/other.png', 'realm/icon.png/x', 'realm/icon.jpg', 'realm/x/icon.png']) {
        expect((await fetchImage(`/user_avatars/${realmId}/${path}`)).status).toBe(404);
      }
      // No night logo was ever stored for the other organization.
      expect((await fetchImage(`/user_avatars/${elsewhereId}/realm/night_logo.png`)).status).toBe(404);
    });
  });
});

import { EventQueueClient, Factory, TestSystem, expectSuccess, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';

interface Person {
  user_id: number;
  full_name: string;
  delivery_email: string | null;
  [key: string]: unknown;
}

/**
 * POST /register's people from the gateway's per-organization cache (RegisterPeople), on as in
 * production and filled two people a page: what it serves is what GET /users says, each
 * viewer's own record shows their address, and a change made through the API reaches the next
 * register once its event is fanned out. (Every other test file turns the cache off: their
 * factories write the database behind the services' backs, which no event announces.)
 */
describe('POST /register: the people, from the per-organization cache', () => {
  let system: TestSystem;
  let factory: Factory;
  let subdomain: string;
  let owner: TestUser, admin: TestUser, member: TestUser, private_: TestUser, renamed: TestUser, leaving: TestUser;
  let outsider: TestUser, outsiderSubdomain: string;

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const people = async (user: TestUser, sub = subdomain) => {
    const body = expectSuccess(await system.api.post<{ realm_users: Person[]; realm_non_active_users: Person[] }>('/register', { fetch_event_types: ['realm_user'] }, as(user, sub)));
    return { active: body.realm_users, nonActive: body.realm_non_active_users };
  };
  const byId = (list: Person[], id: number) => list.find((person) => person.user_id === id);

  beforeAll(async () => {
    system = await TestSystem.start({ env: { REGISTER_CACHE_MAX_AGE_SECONDS: '300', REGISTER_PEOPLE_PAGE_SIZE: '2' } });
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'peoplecache' });
    ({ owner, admin, member } = org);
    subdomain = org.realm.subdomain;
    // Shows the real address to administrators only (and to themselves).
    private_ = await factory.user(org.realm, { fullName: 'Pia Private', settings: { email_address_visibility: 3 } });
    renamed = await factory.user(org.realm, { fullName: 'Rita Renamed' });
    leaving = await factory.user(org.realm, { fullName: 'Lars Leaving' });
    await factory.user(org.realm, { fullName: 'Gone Already', isActive: false });
    const elsewhere = await factory.organization({ subdomain: 'peoplecache-elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.MEMBER, fullName: 'Oscar Outsider' });
  });
  afterAll(() => system?.stop());

  it('serves, page after page, the people GET /users lists, active and deactivated apart', async () => {
    const { members } = expectSuccess(await system.api.get<{ members: (Person & { is_active: boolean })[] }>('/users', { include_custom_profile_fields: true }, as(member)));
    const withoutActive = ({ is_active: _active, ...record }: Person & { is_active: boolean }) => record;
    // Twice: filled, then from the cache.
    for (let round = 0; round < 2; round++) {
      const { active, nonActive } = await people(member);
      expect(active).toEqual(members.filter((m) => m.is_active).map(withoutActive));
      expect(nonActive).toEqual(members.filter((m) => !m.is_active).map(withoutActive));
      expect(active.length).toBeGreaterThan(4); // more than two pages
    }
  });

  it('shows each viewer their own address, and others’ only as their visibility allows', async () => {
    expect(byId((await people(member)).active, private_.id)!.delivery_email).toBeNull();
    // Pia is a member too: the same cached view, with her own record showing her address.
    const own = await people(private_);
    expect(byId(own.active, private_.id)!.delivery_email).toBe(private_.email);
    expect(byId(own.active, member.id)!.delivery_email).toBe(member.email); // visible to members
    expect(byId((await people(member)).active, member.id)!.delivery_email).toBe(member.email);
    expect(byId((await people(admin)).active, private_.id)!.delivery_email).toBe(private_.email);
    expect(byId((await people(owner)).active, private_.id)!.delivery_email).toBe(private_.email);
  });

  it('serves a rename, a new account and a deactivation made through the API to the next register', async () => {
    await people(member); // cached
    const watching = await EventQueueClient.register(system.api, as(member), { event_types: ['realm_user'] });
    expectSuccess(await system.api.patch(`/users/${renamed.id}`, { full_name: 'Rita Renamed Twice' }, as(admin)));
    const created = expectSuccess(await system.api.post<{ user_id: number }>('/users', { email: 'newcomer@example.com', password: 'a long enough password', full_name: 'Nina Newcomer' }, as(admin)));
    expectSuccess(await system.api.delete(`/users/${leaving.id}`, {}, as(admin)));
    // Once the changes are fanned out (the watching queue has them), every later register has them.
    await watching.waitFor('realm_user', 3);
    const { active, nonActive } = await people(member);
    expect(byId(active, renamed.id)!.full_name).toBe('Rita Renamed Twice');
    expect(byId(active, created.user_id)!.full_name).toBe('Nina Newcomer');
    expect(byId(active, leaving.id)).toBeUndefined();
    expect(byId(nonActive, leaving.id)!.full_name).toBe('Lars Leaving');
  });

  it('shows nothing of another organization', async () => {
    await people(member);
    const { active } = await people(outsider, outsiderSubdomain);
    expect(active.map((person) => person.full_name)).toEqual(['Oscar Outsider']);
  });
});

import { Factory, TestSystem, expectMatchesOpenApi } from '@teamchat/testing';

describe('smoke', () => {
  let system: TestSystem;
  beforeAll(async () => {
    system = await TestSystem.start();
  });
  afterAll(() => system.stop());

  it('lists users', async () => {
    const factory = new Factory(system.db);
    const { realm, owner } = await factory.organizationWithStaff({ subdomain: 'acme' });
    const res = await system.api.get('/users', {}, { auth: owner, subdomain: realm.subdomain });
    expect(res.status).toBe(200);
    expectMatchesOpenApi('get', '/users', res.body);
  });
});

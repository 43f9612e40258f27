import { Factory, TestSystem, expectSuccess, type ApiResponse, type TestUser } from '@teamchat/testing';

/**
 * A burst beyond what one users-groups process can do in time: 250 accounts created at once,
 * each hashing a password, with the gateway waiting 5 s for a command. The process takes what it
 * can finish before its callers stop waiting and refuses the rest at once: a 200 created exactly
 * one account, a 503 (with Retry-After) created none, and nobody waits past the deadline. Before,
 * every request was taken, all slowed together, and a 503 could hide an account created anyway.
 */
describe('overload: a burst of password hashing', () => {
  // A burst sized to be beyond the process on a fast machine (hashes of ~40 ms), with a deadline
  // that still lets a slow, busy one (a CI run beside other suites: hashes of ~1 s) finish some.
  const TIMEOUT_MS = 5000;
  let system: TestSystem;
  let subdomain: string;
  let admin: TestUser;

  beforeAll(async () => {
    system = await TestSystem.start({ env: { NATS_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) } });
    const org = await new Factory(system.db).organizationWithStaff({ subdomain: 'overload' });
    subdomain = org.realm.subdomain;
    admin = org.admin;
  });
  afterAll(() => system?.stop());

  it('creates exactly the accounts it answers 200 for, refuses the rest at once, and answers everyone in time', async () => {
    const password = 'Correct-Horse-Battery-9';
    const emails = Array.from({ length: 250 }, (_, n) => `burst${n}@example.test`);
    const timed = async <T>(request: Promise<ApiResponse<T>>) => {
      const started = Date.now();
      const res = await request;
      return { res, ms: Date.now() - started };
    };
    // A process that has been serving (its code compiled, Welcome Bot made), as in production. On
    // a starved machine even this one can miss its time: "not done" then, so it is asked again.
    const warmUp = () => system.api.post('/users', { email: 'warm@example.test', password, full_name: 'Warm' }, { auth: admin, subdomain });
    let warm = await warmUp();
    for (let attempt = 0; attempt < 5 && warm.status === 503; attempt++) warm = await warmUp();
    expectSuccess(warm);
    const created = await Promise.all(
      emails.map((email) => timed(system.api.post('/users', { email, password, full_name: `Burst ${email.slice(5, -13)}` }, { auth: admin, subdomain }))),
    );
    const statuses = created.map(({ res }) => res.status);
    expect(new Set(statuses).size).toBeLessThanOrEqual(2);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0); // the burst was beyond the process
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    for (const { res } of created.filter(({ res }) => res.status === 503)) {
      // Refused by users-groups, or (not answered in time) by the gateway, which then names the
      // service: either way "not done, try again" (the accounts are checked below).
      expect({ body: res.body, retryAfter: res.headers.get('retry-after') }).toEqual({
        body: { result: 'error', msg: 'Service temporarily unavailable', code: 'SERVICE_UNAVAILABLE', 'retry-after': 1, ...('service' in res.body ? { service: 'users-groups' } : {}) },
        retryAfter: '1',
      });
    }
    // Nobody waits for work past the deadline: every answer comes by the caller's timeout. On a
    // CPU-starved machine (a CI run beside other suites) the processes' timers fire late, so the
    // bound keeps a margin; before deadlines, refused work still ran and answers took 10 s and more.
    // The deadline plus a second is measured on a quiet machine by `npm run bench:overload`.
    expect(Math.max(...created.map(({ ms }) => ms))).toBeLessThan(TIMEOUT_MS * 2.5);

    // Every 200 made its one account, every 503 none (nothing was left running behind a refusal).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const stored = new Set((await system.db.user.findMany({ where: { deliveryEmail: { in: emails } }, select: { deliveryEmail: true } })).map((user) => user.deliveryEmail));
    emails.forEach((email, n) => expect([email, stored.has(email)]).toEqual([email, statuses[n] === 200]));

    // And the accounts work: each logs in (the checks queue the same way; a refusal is retried).
    for (const email of emails.filter((_, n) => statuses[n] === 200).slice(0, 5)) {
      let res = await system.api.post<{ api_key: string }>('/fetch_api_key', { username: email, password }, { subdomain });
      while (res.status === 503) res = await system.api.post<{ api_key: string }>('/fetch_api_key', { username: email, password }, { subdomain });
      expect(expectSuccess(res).api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    }
  });
});

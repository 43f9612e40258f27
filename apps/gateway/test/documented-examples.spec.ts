import { EXAMPLES, ExampleWorld, documentedOperations } from './documented-examples/world';
import './documented-examples/real-time-events';
import './documented-examples/authentication';
import './documented-examples/channels';
import './documented-examples/messages';
import './documented-examples/users';
import './documented-examples/organization';
import './documented-examples/drafts';
import './documented-examples/mobile';

/**
 * Zulip's documented examples: each operation of Zulip's OpenAPI description asked through HTTP
 * with the example values Zulip documents for its parameters, on an organization shaped like
 * Zulip's development data, and its answer checked against Zulip's own description of it (see
 * documented-examples/world.ts). `EXAMPLES_ONLY=<operationId>,…` runs only those.
 */

/** Operations of Zulip's description this server does not serve, and why. */
const NOT_SERVED: Record<string, string> = {
  'dev-fetch-api-key': "a development server's login without a password; a production Zulip does not serve it either",
};

const only = process.env.EXAMPLES_ONLY?.split(',').filter(Boolean);

describe("Zulip's documented examples", () => {
  let world: ExampleWorld;

  beforeAll(async () => {
    world = await ExampleWorld.start();
  }, 180_000);
  afterAll(() => world?.stop());

  it('every operation of Zulip\'s description has its example here, except those not served', () => {
    const documented = [...documentedOperations().keys()];
    expect(documented.length).toBeGreaterThan(130);
    const missing = documented.filter((id) => !EXAMPLES.has(id) && !(id in NOT_SERVED));
    expect(missing).toEqual([]);
    const unknown = [...EXAMPLES.keys()].filter((id) => !documented.includes(id));
    expect(unknown).toEqual([]);
  });

  for (const [operationId, example] of EXAMPLES) {
    const run = !only || only.includes(operationId) ? it : it.skip;
    run(operationId, () => example(world), 60_000);
  }
});

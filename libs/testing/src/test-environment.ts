/** Where the tests find Postgres, Redis and NATS (the same defaults as the services). */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432';
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const TEST_NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
export const TEMPLATE_DATABASE = 'teamchat_test_template';
/** The root host of test organizations: `<subdomain>.testserver.local`. */
export const TEST_ROOT_HOST = 'testserver.local';

import { bullmqConnection, waitBudgetMs } from './topic-deletion.settings';
import { topicDeletionJobId } from './topic-deletion.queue';
import { topicForClient, topicFromClient } from './topic-names';

const job = { realmId: 1, streamId: 7, topic: 'Plans', requestedBy: 3, visibleFrom: null };

describe('topic names', () => {
  it.each([
    ['general chat', ''],
    ['(no topic)', ''],
    ['', ''],
    ['General Chat', 'General Chat'],
    [' general chat', ' general chat'],
    ['plans', 'plans'],
  ])('reads %j from a client as %j', (given, stored) => expect(topicFromClient(given)).toBe(stored));

  it('shows the empty topic as general chat unless the client allows ""', () => {
    expect(topicForClient('', false)).toBe('general chat');
    expect(topicForClient('', true)).toBe('');
    expect(topicForClient('plans', false)).toBe('plans');
  });
});

describe('topic deletion job id', () => {
  it('is one per channel and topic, whatever the case', () => {
    expect(topicDeletionJobId(job)).toBe(topicDeletionJobId({ ...job, topic: 'PLANS', requestedBy: 4 }));
    expect(topicDeletionJobId(job)).not.toBe(topicDeletionJobId({ ...job, topic: 'other' }));
    expect(topicDeletionJobId(job)).not.toBe(topicDeletionJobId({ ...job, streamId: 8 }));
  });

  it('is per requester where protected history limits what they may delete', () => {
    const a = topicDeletionJobId({ ...job, visibleFrom: 10 });
    expect(a).not.toBe(topicDeletionJobId({ ...job, visibleFrom: 10, requestedBy: 4 }));
    expect(a).not.toBe(topicDeletionJobId(job));
  });

  it('never holds a colon or the raw topic, which may hold anything', () => {
    const id = topicDeletionJobId({ ...job, topic: 'a:b/c\u00e9 '.repeat(10) });
    expect(id).toMatch(/^topic-7-[0-9a-f]{32}$/);
  });
});

describe('topic deletion settings', () => {
  it('waits within the NATS request timeout, at most Zulip’s 50 s', () => {
    expect(waitBudgetMs({ NATS_REQUEST_TIMEOUT_MS: 10_000 })).toBe(8000);
    expect(waitBudgetMs({ NATS_REQUEST_TIMEOUT_MS: 3000 })).toBe(1000);
    expect(waitBudgetMs({ NATS_REQUEST_TIMEOUT_MS: 120_000 })).toBe(50_000);
    expect(waitBudgetMs({ NATS_REQUEST_TIMEOUT_MS: 1000 })).toBe(250);
  });

  it('connects BullMQ by REDIS_URL and keeps its keys under REDIS_KEY_PREFIX', () => {
    expect(bullmqConnection({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: 'teamchat:' })).toEqual({
      connection: { host: '127.0.0.1', port: 6379, db: 0, maxRetriesPerRequest: null },
      prefix: 'teamchat:{bull}',
    });
    expect(bullmqConnection({ REDIS_URL: 'rediss://u:p%40ss@cache.internal:6380/2', REDIS_KEY_PREFIX: 't:' })).toEqual({
      connection: { host: 'cache.internal', port: 6380, username: 'u', password: 'p@ss', db: 2, tls: {}, maxRetriesPerRequest: null },
      prefix: 't:{bull}',
    });
    expect(bullmqConnection({ REDIS_URL: 'redis://[::1]:6379', REDIS_KEY_PREFIX: '' }).connection).toMatchObject({ host: '::1' });
  });
});

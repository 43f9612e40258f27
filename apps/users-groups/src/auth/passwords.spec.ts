import { withDeadline } from '@teamchat/platform';
import { withPasswordHashing } from './passwords';

describe('withPasswordHashing: admission before any work', () => {
  // The clock stands still (Date only): a busy machine's delays between calls must not count.
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance', 'hrtime'] }));
  afterEach(() => jest.useRealTimers());

  it('takes what fits before the deadline (four threads, ~50 ms a hash) and refuses the rest before their lookups run', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const started: number[] = [];
    const outcomes = withDeadline(Date.now() + 120, () =>
      Array.from({ length: 12 }, (_, n) =>
        withPasswordHashing(async () => {
          started.push(n); // the command's lookups
          await held;
          return n;
        }).then(
          (value) => ({ value }),
          (error: { code?: string }) => ({ refused: error.code }),
        ),
      ),
    );
    // Eight places fit (two rounds of four hashes by 120 ms); the other four never started their lookups.
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    release();
    expect(await Promise.all(outcomes)).toEqual([
      ...Array.from({ length: 8 }, (_, n) => ({ value: n })),
      ...Array.from({ length: 4 }, () => ({ refused: 'SERVICE_UNAVAILABLE' })),
    ]);
  });

  it('always tries a command with nobody ahead, even when the average hash looks longer than its time', async () => {
    await expect(withDeadline(Date.now() + 10, () => withPasswordHashing(async () => 'tried'))).resolves.toBe('tried');
  });

  it('gives places back when the work ends, so a later command is taken again', async () => {
    const deadline = Date.now() + 60;
    await Promise.all(Array.from({ length: 4 }, () => withDeadline(deadline, () => withPasswordHashing(async () => 'done'))));
    // One place held: the next fits (one round, 50 ms) only if those four gave theirs back.
    let release!: () => void;
    const holder = withPasswordHashing(() => new Promise<void>((resolve) => (release = resolve)));
    await expect(withDeadline(Date.now() + 60, () => withPasswordHashing(async () => 'again'))).resolves.toBe('again');
    release();
    await holder;
  });

  it('hashes and checks with argon2id on the place it took', async () => {
    const hash = await withPasswordHashing((hasher) => hasher.hash('Correct-Horse-Battery-9'));
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await withPasswordHashing((hasher) => hasher.verify(hash, 'Correct-Horse-Battery-9'))).toBe(true);
    expect(await withPasswordHashing((hasher) => hasher.verify(hash, 'wrong'))).toBe(false);
    expect(await withPasswordHashing((hasher) => hasher.verify(undefined, 'anything'))).toBe(false);
  }, 30000);
});

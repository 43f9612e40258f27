import { useTestDatabase } from '@teamchat/testing';
import { arrayLiteral, statement } from './pg.service';

/** Arrays sent as arrayLiteral writes them arrive in Postgres as they were (read back through pg). */
describe('array parameters', () => {
  const db = useTestDatabase({ poolSize: 1 });

  const texts = statement<{ value: (string | null)[] }, [(string | null)[]]>('test.texts', 'SELECT $1::text[] AS value');
  const ints = statement<{ value: (number | null)[]; total: string | null }, [(number | null)[]]>(
    'test.ints',
    'SELECT $1::int[] AS value, (SELECT sum(v)::text FROM unnest($1::int[]) AS v) AS total',
  );
  const pairs = statement<{ id: number; text: string; n: string }, [number[], string[]]>(
    'test.pairs',
    'SELECT id, text, n::text FROM unnest($1::int[], $2::text[]) WITH ORDINALITY AS r(id, text, n) ORDER BY r.n',
  );

  it('keeps every character of text elements, quotes and backslashes included', async () => {
    const values = ['', 'plain', 'with space', 'a,b', '{braces}', '"quoted"', 'back\\slash', '\\"', 'NULL', null, 'ünïcødé 🎉', '{"id":1,"s":"a\\"b"}', ' lead and trail '];
    expect(await db.pg.run(texts, values)).toEqual([{ value: values }]);
  });

  it('keeps control characters and astral characters, which JSON would write otherwise', async () => {
    const values = ['line\nbreak', 'tab\there', 'bell\u0007"and quote"', 'emoji 🎉 \\ "q"', `${'{"a":"b\\\\c"},'.repeat(2000)}\r`];
    expect(await db.pg.run(texts, values)).toEqual([{ value: values }]);
    expect(arrayLiteral(['a\nb'])).toBe('{"a\nb"}');
    expect(arrayLiteral(['say "hi" \\ bye'])).toBe('{"say \\"hi\\" \\\\ bye"}');
  });

  it('sends numbers as numbers, nulls as NULL, and empty arrays empty', async () => {
    expect(await db.pg.run(ints, [3, -1, 0, 2147483647, null])).toEqual([{ value: [3, -1, 0, 2147483647, null], total: '2147483649' }]);
    expect(await db.pg.run(ints, [])).toEqual([{ value: [], total: null }]);
  });

  it('keeps parallel arrays in step', async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => i * 7);
    const textsOf = ids.map((id) => `{"id":${id},"flags":["read"]}`);
    const rows = await db.pg.run(pairs, ids, textsOf);
    expect(rows).toHaveLength(1000);
    expect(rows[999]).toEqual({ id: 6993, text: '{"id":6993,"flags":["read"]}', n: '1000' });
  });

  it('leaves what it does not write to pg', () => {
    expect(arrayLiteral([1, 'a', null])).toBe('{1,"a",NULL}');
    expect(arrayLiteral([[1, 2]])).toBeUndefined();
    expect(arrayLiteral([new Date(0)])).toBeUndefined();
  });
});

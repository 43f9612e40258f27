import { isDependencyUnavailable } from './dependency-errors';

describe('isDependencyUnavailable', () => {
  it.each([
    ['a refused socket', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['Postgres shutting down', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['Postgres starting up', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['Postgres with every connection slot taken', Object.assign(new Error('sorry, too many clients already'), { code: '53300' })],
    ['a dropped pg connection', new Error('Connection terminated unexpectedly')],
    ['ioredis with Redis gone', new Error('Connection is closed.')],
    ['Prisma unable to reach the server', Object.assign(new Error('Can\'t reach database server'), { code: 'P1001' })],
    ['a wrapped cause', new Error('driver adapter failed', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) })],
  ])('recognises %s', (_name, error) => {
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' })],
    ['a type error', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['nothing', undefined],
    ['a string', 'Connection is closed'],
  ])('does not take %s for an outage', (_name, error) => {
    expect(isDependencyUnavailable(error)).toBe(false);
  });
});

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
    ['a Redis Cluster slot moved in a failover', new Error('MOVED 14743 127.0.0.1:17486')],
    ['a Redis Cluster without a master for a slot', new Error('CLUSTERDOWN The cluster is down')],
    ['a Redis Cluster refusing a multi-key command mid-migration', new Error('TRYAGAIN Multiple keys request during rehashing of slot')],
    ['a wrapped cause', new Error('driver adapter failed', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) })],
  ])('recognises %s', (_name, error) => {
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' })],
    ['a Redis script error', new Error('ERR Error running script (call to f_1234): @user_script:1: user_script:1: attempt to compare nil with number')],
    ['a message that merely mentions moving', new Error('Message MOVED to another topic')],
    ['a type error', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['nothing', undefined],
    ['a string', 'Connection is closed'],
  ])('does not take %s for an outage', (_name, error) => {
    expect(isDependencyUnavailable(error)).toBe(false);
  });
});

import { useTestDatabase } from '@teamchat/testing';
import { statusOf } from '../devices/push-device';
import { PushDevicesRepository } from './push-devices.repository';

/**
 * POST /register's `push_devices`, read through pg: each of the user's devices, oldest first, by
 * its push account ID (a bigint, past JavaScript's safe integers) with the status Prisma's row gives.
 */
describe('a user’s push devices as POST /register shows them', () => {
  const db = useTestDatabase();

  it('has every device of the user, oldest first, with its exact account ID and status', async () => {
    const realm = await db.factory.organization();
    const [user, other] = [await db.factory.user(realm), await db.factory.user(realm)];
    const device = (userId: number, pushAccountId: bigint, state: { bouncerDeviceId?: bigint; errorCode?: string }) =>
      db.prisma.pushDevice.create({
        data: { realmId: realm.id, userId, pushAccountId, tokenKind: 'fcm', pushPublicKey: new Uint8Array(32), bouncerPublicKey: 'key', encryptedPushRegistration: 'sealed', ...state },
      });
    await device(user.id, 9007199254740993n, { bouncerDeviceId: 9007199254740995n }); // active
    await device(user.id, 5n, {}); // pending
    await device(user.id, 7n, { errorCode: 'INVALID_BOUNCER_PUBLIC_KEY' }); // failed
    await device(other.id, 11n, {});
    const expected = (await db.prisma.pushDevice.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } })).map((row) => ({ id: String(row.pushAccountId), status: statusOf(row), error: row.errorCode }));
    const states = await new PushDevicesRepository(db.prisma, db.pg).statesOf(user.id);
    expect(states.map((row) => ({ id: row.pushAccountId, status: statusOf(row), error: row.errorCode }))).toEqual(expected);
    expect(expected).toEqual([
      { id: '9007199254740993', status: 'active', error: null },
      { id: '5', status: 'pending', error: null },
      { id: '7', status: 'failed', error: 'INVALID_BOUNCER_PUBLIC_KEY' },
    ]);
  });
});

import { PushEvents, type Push } from '@teamchat/contracts';

/** A stored push device, as the push service uses it. */
export interface PushDeviceRow {
  id: number;
  realmId: number;
  userId: number;
  pushAccountId: bigint;
  tokenKind: string;
  pushPublicKey: Uint8Array;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
  bouncerDeviceId: bigint | null;
  errorCode: string | null;
}

/** Active once the relay gave it an id, failed once the relay refused it, pending until then. */
export function statusOf(device: { bouncerDeviceId: bigint | string | null; errorCode: string | null }): Push.PushDeviceStatus {
  if (device.errorCode !== null) return 'failed';
  return device.bouncerDeviceId !== null ? 'active' : 'pending';
}

/** The `push_device` event telling the device's owner where its registration stands. */
export function pushDeviceEvent(device: Pick<PushDeviceRow, 'realmId' | 'userId' | 'pushAccountId' | 'bouncerDeviceId' | 'errorCode'>) {
  const status = statusOf(device);
  return {
    def: PushEvents.pushDeviceChanged,
    payload: {
      realmId: device.realmId,
      users: [device.userId],
      event: {
        type: 'push_device',
        push_account_id: String(device.pushAccountId),
        status,
        ...(status === 'failed' ? { error_code: device.errorCode } : {}),
      },
    },
  };
}

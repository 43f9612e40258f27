import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, type Prisma } from '@teamchat/db';
import { deviceStatesOf, usersWithAnyDevice, type DeviceStateRow } from './push-devices.sql';
import type { PushDeviceRow } from '../devices/push-device';

export interface NewRegistration {
  realmId: number;
  userId: number;
  pushAccountId: bigint;
  tokenKind: string;
  pushPublicKey: Uint8Array<ArrayBuffer>;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
}

/** The `push_devices` table: one row per user and push account ID. */
@Injectable()
export class PushDevicesRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  /** Which of these users a push can reach (an active E2EE device, or a token registered the older way). */
  async reachable(userIds: number[]): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    return new Set((await this.pg.run(usersWithAnyDevice, userIds)).map((row) => row.userId));
  }

  find(userId: number, pushAccountId: bigint): Promise<PushDeviceRow | null> {
    return this.prisma.pushDevice.findUnique({ where: { userId_pushAccountId: { userId, pushAccountId } } });
  }

  /** The user's devices, oldest first, as POST /register shows them (through pg: every client's start reads them). */
  statesOf(userId: number): Promise<DeviceStateRow[]> {
    return this.pg.run(deviceStatesOf, userId);
  }

  /** The user's devices the relay accepted (all of them, or the one with that push account ID). */
  activeOfUser(userId: number, pushAccountId?: bigint): Promise<PushDeviceRow[]> {
    return this.prisma.pushDevice.findMany({
      where: { userId, bouncerDeviceId: { not: null }, errorCode: null, ...(pushAccountId !== undefined ? { pushAccountId } : {}) },
      orderBy: { id: 'asc' },
    });
  }

  /** The active devices of these users (notifications of a message), oldest first. */
  activeOfUsers(userIds: number[]): Promise<PushDeviceRow[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.prisma.pushDevice.findMany({ where: { userId: { in: userIds }, bouncerDeviceId: { not: null }, errorCode: null }, orderBy: { id: 'asc' } });
  }

  /** Every device still waiting for the relay. */
  pending(): Promise<PushDeviceRow[]> {
    return this.prisma.pushDevice.findMany({ where: { bouncerDeviceId: null, errorCode: null }, orderBy: { id: 'asc' } });
  }

  /**
   * Stores a (new or renewed) registration as pending: a renewal forgets the relay's id and
   * any earlier failure, since the relay must take the new one.
   */
  savePending(registration: NewRegistration, tx: Prisma.TransactionClient = this.prisma): Promise<PushDeviceRow> {
    const { realmId, userId, pushAccountId, ...fields } = registration;
    const data = { ...fields, bouncerDeviceId: null, errorCode: null, updated: new Date() };
    return tx.pushDevice.upsert({
      where: { userId_pushAccountId: { userId, pushAccountId } },
      create: { realmId, userId, pushAccountId, ...data },
      update: data,
    });
  }

  /**
   * Records the relay's answer, unless the registration changed meanwhile (a newer one of the
   * same device is on its way): null then.
   */
  async settle(
    device: PushDeviceRow,
    outcome: { bouncerDeviceId: bigint } | { errorCode: string },
    tx: Prisma.TransactionClient = this.prisma,
  ): Promise<PushDeviceRow | null> {
    const { count } = await tx.pushDevice.updateMany({
      where: { id: device.id, encryptedPushRegistration: device.encryptedPushRegistration, bouncerDeviceId: null, errorCode: null },
      data: { ...outcome, updated: new Date() },
    });
    return count === 1 ? tx.pushDevice.findUnique({ where: { id: device.id } }) : null;
  }
}

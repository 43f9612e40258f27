import { Injectable } from '@nestjs/common';
import type { UserCommand, Push } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { pushDeviceEvent, statusOf } from '../devices/push-device';
import { PushDevicesRepository } from '../data/push-devices.repository';
import { PushRelayClient } from '../relay/push-relay.client';
import { decodePublicKey } from '../relay/sealed-payload';
import { RelayRegistration } from './relay-registration';

type Params = DecodedParams<typeof Push.registerPushDeviceParams>;

/**
 * POST /mobile_push/register (Zulip's register_push_device): stores the device as pending,
 * tells its owner so (`push_device` pending), and answers; the registration then goes to the
 * relay in the background (RelayRegistration). The token stays sealed for the relay: this
 * server never reads it. Registering again the same push account ID with the same public key,
 * pending or active, changes nothing (clients re-register on every start, with a fresh
 * ciphertext); a new key, or a device whose registration failed, is registered anew.
 */
@Injectable()
export class RegisterPushDevice {
  constructor(
    private readonly relay: PushRelayClient,
    private readonly devices: PushDevicesRepository,
    private readonly registration: RelayRegistration,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const caller = user;
    if (caller.isBot) throw badRequest('This endpoint does not accept bot requests.');
    this.relay.requireConfigured();
    const publicKey = decodePublicKey(params.push_public_key);
    if (!publicKey) throw badRequest('Invalid `push_public_key`');
    if (params.bouncer_public_key.trim() === '') throw badRequest('bouncer_public_key cannot be blank');
    if (params.encrypted_push_registration.trim() === '') throw badRequest('encrypted_push_registration cannot be blank');
    const pushAccountId = BigInt(params.push_account_id);

    const existing = await this.devices.find(caller.id, pushAccountId);
    if (
      existing &&
      statusOf(existing) !== 'failed' &&
      Buffer.from(existing.pushPublicKey).equals(publicKey)
    ) {
      return {};
    }

    const registration = {
      realmId: realm.id,
      userId: caller.id,
      pushAccountId,
      tokenKind: params.token_kind,
      pushPublicKey: publicKey,
      bouncerPublicKey: params.bouncer_public_key,
      encryptedPushRegistration: params.encrypted_push_registration,
    };
    const device = await this.outbox.runCold(async (tx) => {
      const row = await this.devices.savePending(registration, tx);
      return { value: row, events: [pushDeviceEvent(row)] };
    }, requestId);
    this.registration.start(device, requestId);
    return {};
  }
}

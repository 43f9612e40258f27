import { Inject, Injectable } from '@nestjs/common';
import type { UserCommand, Push } from '@teamchat/contracts';
import { LOGGER } from '@teamchat/platform';
import { ZulipError, badRequest, type DecodedParams } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { PushDevicesRepository } from '../data/push-devices.repository';
import { PushRelayClient } from '../relay/push-relay.client';
import { relayFailureAsZulipError } from '../relay/relay-errors';
import { sealPayload } from '../relay/sealed-payload';

type Params = DecodedParams<typeof Push.sendE2eeTestNotificationParams>;

const NO_ACTIVE_PUSH_DEVICE = 'No active registered push device';

/**
 * POST /mobile_push/e2ee/test_notification (Zulip's send_e2ee_test_push_notification_api):
 * the test payload `{type: "test", realm_name, realm_url, time, user_id}` sealed to each of the
 * caller's active devices (or the one named) and handed to the relay in one request. Only
 * devices the relay accepted count; none is NO_ACTIVE_PUSH_DEVICE. The relay's failures map
 * to Zulip's codes: unreachable or too slow → FAILED_TO_CONNECT_BOUNCER, 5xx →
 * INTERNAL_SERVER_ERROR_ON_BOUNCER, a refusal (this server's credentials, plan or
 * organization) → ADMIN_ACTION_REQUIRED.
 */
@Injectable()
export class SendE2eeTestNotification {
  constructor(
    private readonly relay: PushRelayClient,
    private readonly devices: PushDevicesRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const caller = user;
    if (caller.isBot) throw badRequest('This endpoint does not accept bot requests.');
    const pushAccountId = params.push_account_id === undefined ? undefined : BigInt(params.push_account_id);
    const devices = await this.devices.activeOfUser(caller.id, pushAccountId);
    if (devices.length === 0) throw new ZulipError('NO_ACTIVE_PUSH_DEVICE', NO_ACTIVE_PUSH_DEVICE);
    // Active devices exist only where a relay took them; one may have been unconfigured since.
    this.relay.requireConfigured();

    const payload = { type: 'test', realm_name: realm.name, realm_url: realm.url, time: Math.floor(Date.now() / 1000), user_id: caller.id };
    const pushRequests = await Promise.all(
      devices.map(async (device) => ({
        device_id: Number(device.bouncerDeviceId),
        payload: { push_account_id: String(device.pushAccountId), encrypted_data: await sealPayload(payload, device.pushPublicKey) },
      })),
    );
    try {
      await this.relay.notify({ realm_id: realm.id, push_requests: pushRequests });
    } catch (error) {
      throw relayFailureAsZulipError(error, this.logger, requestId);
    }
    return {};
  }
}

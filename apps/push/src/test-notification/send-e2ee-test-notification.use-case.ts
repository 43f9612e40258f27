import { Inject, Injectable } from '@nestjs/common';
import type { UserCommand, Push } from '@teamchat/contracts';
import { LOGGER } from '@teamchat/platform';
import { ZulipError, badRequest, type DecodedParams } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { PushDevicesRepository } from '../data/push-devices.repository';
import { PushRelayClient, RelayRefused, RelayServerError, RelayUnreachable } from '../relay/push-relay.client';
import { sealPayload } from '../relay/sealed-payload';

type Params = DecodedParams<typeof Push.sendE2eeTestNotificationParams>;

/** The texts of Zulip's errors (OpenAPI e2ee-test-notify). */
const TEXTS = {
  NO_ACTIVE_PUSH_DEVICE: 'No active registered push device',
  ADMIN_ACTION_REQUIRED: 'Push notification configuration issue on server, contact the server administrator or retry later.',
  FAILED_TO_CONNECT_BOUNCER: 'Network error while connecting to Zulip push notification service.',
  INTERNAL_SERVER_ERROR_ON_BOUNCER: 'Internal server error on Zulip push notification service, retry later.',
} as const;

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
    if (devices.length === 0) throw new ZulipError('NO_ACTIVE_PUSH_DEVICE', TEXTS.NO_ACTIVE_PUSH_DEVICE);
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
      throw this.asZulipError(error, requestId);
    }
    return {};
  }

  private asZulipError(error: unknown, requestId: string): unknown {
    if (error instanceof RelayUnreachable) {
      this.logger.warn({ err: error, requestId }, 'push relay unreachable');
      return new ZulipError('FAILED_TO_CONNECT_BOUNCER', TEXTS.FAILED_TO_CONNECT_BOUNCER);
    }
    if (error instanceof RelayServerError) {
      this.logger.warn({ err: error, requestId }, 'push relay failed');
      return new ZulipError('INTERNAL_SERVER_ERROR_ON_BOUNCER', TEXTS.INTERNAL_SERVER_ERROR_ON_BOUNCER);
    }
    if (error instanceof RelayRefused) {
      this.logger.error({ err: error, code: error.code, status: error.status, requestId }, 'push relay refused this server');
      return new ZulipError('ADMIN_ACTION_REQUIRED', TEXTS.ADMIN_ACTION_REQUIRED);
    }
    return error;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { Push, UserCommand } from '@teamchat/contracts';
import { LOGGER } from '@teamchat/platform';
import { ZulipError, badRequest, type DecodedParams } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { PushDeviceTokensRepository } from '../data/push-device-tokens.repository';
import { PushRelayClient } from '../relay/push-relay.client';
import { relayFailureAsZulipError } from '../relay/relay-errors';
import { NOT_FOR_BOTS } from './device-token';
import { basePayload } from '../notifications/legacy-payloads';

type Params = DecodedParams<(typeof Push.sendTestNotification)['params']>;

/**
 * POST /mobile_push/test_notification (Zulip's send_test_push_notification_api): the named
 * token of the caller (INVALID_PUSH_DEVICE_TOKEN "Device not recognized" when it is not theirs)
 * or every token of theirs (none: nothing is sent) gets a test notification, one relay request
 * per device with Zulip's `base_payload`, which the relay turns into the notification. No relay:
 * PUSH_SERVICE_NOT_CONFIGURED.
 */
@Injectable()
export class SendTestNotification {
  constructor(
    private readonly tokens: PushDeviceTokensRepository,
    private readonly relay: PushRelayClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    if (user.isBot) throw badRequest(NOT_FOR_BOTS);
    const devices = await this.tokens.ofUser(user.id, params.token);
    if (params.token !== undefined && devices.length === 0) throw new ZulipError('INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized');
    this.relay.requireConfigured();
    // The relay makes the test notification from the base payload (Zulip's bouncer does).
    const payload = basePayload(realm, user.id);
    try {
      for (const device of devices) {
        await this.relay.testNotification({ realm_id: realm.id, user_id: user.id, token: device.token, token_kind: device.kind, base_payload: payload });
      }
    } catch (error) {
      throw relayFailureAsZulipError(error, this.logger, requestId, true);
    }
    return {};
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { Push } from '@teamchat/contracts';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { UnrecoverableError } from 'bullmq';
import { NotificationContextReadonlyRepository } from '../data/notification-context.readonly.repository';
import { PushDeviceTokensRepository } from '../data/push-device-tokens.repository';
import { PushDevicesRepository } from '../data/push-devices.repository';
import { PushRelayClient, RelayRefused } from '../relay/push-relay.client';
import { sealPayload } from '../relay/sealed-payload';
import { e2eeRemovePayload, legacyRemovePayloads, realmUrlOf } from './push-payloads';

/**
 * Tells a user's phones to drop the notifications of messages now read (Zulip's
 * handle_remove_push_notification): `{type: "remove", message_ids}` sealed to each active
 * device, and the older `event: "remove"` payloads for tokens.
 */
@Injectable()
export class SendPushRemoval {
  constructor(
    private readonly context: NotificationContextReadonlyRepository,
    private readonly devices: PushDevicesRepository,
    private readonly tokens: PushDeviceTokensRepository,
    private readonly relay: PushRelayClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(job: Push.PushRemoveJob): Promise<void> {
    if (!this.relay.configured) return;
    const user = await this.context.mailRecipient(job.userId);
    if (!user) return;
    const realm = { id: user.realmId, name: user.realmName, url: realmUrlOf(user.subdomain, this.config.EXTERNAL_URL) };
    const [devices, tokenUsers] = await Promise.all([this.devices.activeOfUser(job.userId), this.tokens.usersWithTokens([job.userId])]);
    try {
      if (devices.length > 0) {
        const payload = e2eeRemovePayload(realm, job.userId, job.messageIds);
        const pushRequests = await Promise.all(
          devices.map(async (device) => ({
            device_id: Number(device.bouncerDeviceId),
            payload: { push_account_id: String(device.pushAccountId), encrypted_data: await sealPayload(payload, device.pushPublicKey) },
          })),
        );
        await this.relay.notify({ realm_id: realm.id, push_requests: pushRequests });
      }
      if (tokenUsers.size > 0) {
        const payloads = legacyRemovePayloads(realm, job.userId, job.messageIds);
        await this.relay.notifyTokens({ realm_id: realm.id, user_id: job.userId, apns_payload: payloads.apns, gcm_payload: payloads.gcm, gcm_options: payloads.gcmOptions });
      }
    } catch (error) {
      if (error instanceof RelayRefused) throw new UnrecoverableError(`relay refused: ${error.message}`);
      throw error;
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { Push } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, type AppConfig } from '@teamchat/platform';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { NotificationContextReadonlyRepository } from '../data/notification-context.readonly.repository';
import { PushDeviceTokensRepository } from '../data/push-device-tokens.repository';
import { PushDevicesRepository } from '../data/push-devices.repository';
import { PushNotifiedRepository } from '../data/push-notified.repository';
import { PushRelayClient, RelayRefused, isConfigurationRefusal } from '../relay/push-relay.client';
import { sealPayload } from '../relay/sealed-payload';
import { e2eeMessagePayload, legacyMessagePayloads, realmUrlOf } from './push-payloads';
import { MessageFlag } from './notification-rules';

/** Requests to the relay under way at once for one message's token users. */
const RELAY_PARALLEL = 16;

/** Saves a job's progress, so a retry sends only what is left. */
export type SaveProgress = (job: Push.PushMessageJob) => Promise<void>;

/**
 * A message's mobile pushes (Zulip's handle_push_notification): for each notified user who has
 * not read it meanwhile, the payload sealed to each of their active E2EE devices — all of them
 * in one relay request — and, for users with tokens registered the older way, the FCM and APNs
 * payloads through the relay's `push/notify`, one request per user. A relay that is unreachable
 * or fails throws (BullMQ retries with backoff, skipping the parts done); one that refuses this
 * server fails the job for good. The users notified are recorded, for the removal when read.
 */
@Injectable()
export class SendMessagePush {
  constructor(
    private readonly context: NotificationContextReadonlyRepository,
    private readonly devices: PushDevicesRepository,
    private readonly tokens: PushDeviceTokensRepository,
    private readonly notified: PushNotifiedRepository,
    private readonly relay: PushRelayClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(job: Push.PushMessageJob, save: SaveProgress): Promise<{ devices: number; tokenUsers: number }> {
    if (!this.relay.configured) return { devices: 0, tokenUsers: 0 };
    const message = await this.context.message(job.messageId);
    if (!message) return { devices: 0, tokenUsers: 0 };
    const unread = await this.context.unreadBy(message.id, job.userIds);
    const userIds = unread.map((row) => row.userId);
    const mentioned = new Set(unread.filter((row) => (row.flags & MessageFlag.mentioned) !== 0).map((row) => row.userId));
    const ctx = { message, realmUrl: realmUrlOf(message.subdomain, this.config.EXTERNAL_URL) };
    const [devices, tokenUsers] = await Promise.all([this.devices.activeOfUsers(userIds), this.tokens.usersWithTokens(userIds)]);
    let progress = { ...job };
    try {
      if (!progress.e2eeDone && devices.length > 0) {
        const pushRequests = await Promise.all(
          devices.map(async (device) => ({
            device_id: Number(device.bouncerDeviceId),
            payload: { push_account_id: String(device.pushAccountId), encrypted_data: await sealPayload(e2eeMessagePayload(ctx, device.userId), device.pushPublicKey) },
          })),
        );
        await this.relay.notify({ realm_id: message.realmId, push_requests: pushRequests });
        progress = { ...progress, e2eeDone: true };
      }
      // One request per user (the relay holds their tokens), RELAY_PARALLEL at a time.
      const done = new Set(progress.tokensDone ?? []);
      const waiting = [...tokenUsers].filter((userId) => !done.has(userId));
      const failures: unknown[] = [];
      await Promise.all(
        Array.from({ length: Math.min(RELAY_PARALLEL, waiting.length) }, async () => {
          for (let userId = waiting.shift(); userId !== undefined && failures.length === 0; userId = waiting.shift()) {
            const payloads = legacyMessagePayloads(ctx, userId, mentioned.has(userId));
            try {
              await this.relay.notifyTokens({ realm_id: message.realmId, user_id: userId, apns_payload: payloads.apns, gcm_payload: payloads.gcm, gcm_options: payloads.gcmOptions });
              done.add(userId);
            } catch (error) {
              failures.push(error);
            }
          }
        }),
      );
      if (done.size > 0) progress = { ...progress, tokensDone: [...done] };
      if (failures.length > 0) throw failures[0];
    } catch (error) {
      if (progress !== job) await save(progress).catch(() => undefined);
      if (error instanceof RelayRefused) {
        this.logger.error({ err: error, code: error.code, messageId: message.id, configuration: isConfigurationRefusal(error) }, 'push relay refused the notification');
        throw new UnrecoverableError(`relay refused: ${error.message}`);
      }
      throw error;
    }
    const reached = new Set([...devices.map((device) => device.userId), ...tokenUsers]);
    await this.notified.record(message.realmId, message.id, [...reached]);
    return { devices: devices.length, tokenUsers: tokenUsers.size };
  }
}

import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EventOutbox } from '@teamchat/db';
import { APP_CONFIG, LOGGER, type AppConfig } from '@teamchat/platform';
import type { Logger } from 'pino';
import { pushDeviceEvent, type PushDeviceRow } from '../devices/push-device';
import { PushDevicesRepository } from '../data/push-devices.repository';
import { PushRelayClient, RelayRefused, isConfigurationRefusal } from '../relay/push-relay.client';

/**
 * Hands pending registrations to the relay, after POST /mobile_push/register has answered
 * (Zulip's register_push_device_to_bouncer queue worker). The relay's verdict settles the
 * device: its id makes it active; a refusal of the registration itself (a wrong bouncer key,
 * bad ciphertext, an expired request) makes it failed with the relay's code. Either way the
 * owner hears of it in a `push_device` event. What says nothing about the registration — the
 * relay unreachable or failing, or refusing this server's configuration — is tried again
 * PUSH_REGISTRATION_ATTEMPTS times, PUSH_REGISTRATION_RETRY_MS apart; the row stays pending,
 * and pending rows are taken up again whenever the service starts.
 */
@Injectable()
export class RelayRegistration implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly devices: PushDevicesRepository,
    private readonly relay: PushRelayClient,
    private readonly outbox: EventOutbox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.relay.configured) return;
    void this.devices
      .pending()
      .then((devices) => devices.forEach((device) => this.start(device)))
      .catch((error: unknown) => this.logger.error({ err: error }, 'pending push registrations not resumed'));
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** Starts forwarding in the background; never throws. */
  start(device: PushDeviceRow, requestId?: string): void {
    void this.attempt(device, 1, requestId);
  }

  private async attempt(device: PushDeviceRow, attempt: number, requestId?: string): Promise<void> {
    if (this.stopped) return;
    try {
      const { device_id } = await this.relay.registerDevice({
        realm_id: device.realmId,
        push_account_id: String(device.pushAccountId),
        encrypted_push_registration: device.encryptedPushRegistration,
        bouncer_public_key: device.bouncerPublicKey,
      });
      await this.settle(device, { bouncerDeviceId: BigInt(device_id) }, requestId);
    } catch (error) {
      if (error instanceof RelayRefused && !isConfigurationRefusal(error)) {
        await this.settle(device, { errorCode: error.code ?? 'BAD_REQUEST' }, requestId).catch((failure: unknown) =>
          this.logger.error({ err: failure, requestId }, 'push registration outcome not stored'),
        );
        return;
      }
      const context = { err: error, requestId, userId: device.userId, pushAccountId: String(device.pushAccountId), attempt };
      if (attempt >= this.config.PUSH_REGISTRATION_ATTEMPTS) {
        this.logger.error(context, 'push device registration not taken by the relay; left pending');
        return;
      }
      this.logger.warn(context, 'push device registration not taken by the relay; will retry');
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.attempt(device, attempt + 1, requestId);
      }, this.config.PUSH_REGISTRATION_RETRY_MS);
      timer.unref();
      this.timers.add(timer);
    }
  }

  private async settle(device: PushDeviceRow, outcome: { bouncerDeviceId: bigint } | { errorCode: string }, requestId?: string): Promise<void> {
    await this.outbox.runCold(async (tx) => {
      const settled = await this.devices.settle(device, outcome, tx);
      return { value: undefined, events: settled ? [pushDeviceEvent(settled)] : [] };
    }, requestId);
  }
}

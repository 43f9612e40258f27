import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, LOGGER, type AppConfig } from '@teamchat/platform';
import type { Logger } from 'pino';
import { PresenceStore } from './presence.store';

/**
 * Every PRESENCE_FLUSH_INTERVAL_MS, in every presence replica, writes the presence that changed
 * in Redis to Postgres (`user_presence`), and once more on shutdown. Replicas take distinct
 * users (SPOP), and a row never goes back to an older update, so running them side by side is
 * harmless. Presence reported since the last flush is what a Redis loss costs.
 */
@Injectable()
export class PresenceFlushWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly store: PresenceStore,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.flush(), this.config.PRESENCE_FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  /** One flush at a time per replica. */
  flush(): Promise<void> {
    this.running ??= this.store
      .flush()
      .then((written) => {
        if (written > 0) this.logger.debug({ written }, 'presence flushed');
      })
      .catch((err: unknown) => this.logger.error({ err }, 'presence flush failed'))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.flush();
  }
}

import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from './config';

/**
 * A process's SIGTERM, before anything closes: readiness turns false at once (so load balancers
 * and orchestrators stop sending work), and the process keeps serving for
 * SHUTDOWN_GRACE_SECONDS while they notice, before its servers close and its work drains.
 */
@Injectable()
export class Shutdown implements BeforeApplicationShutdown {
  private draining = false;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  isDraining(): boolean {
    return this.draining;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.draining = true;
    const graceMs = this.config.SHUTDOWN_GRACE_SECONDS * 1000;
    if (graceMs > 0) await new Promise((resolve) => setTimeout(resolve, graceMs));
  }
}

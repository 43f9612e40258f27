import { Inject, Injectable, type Type } from '@nestjs/common';
import { HealthCommands, type HealthReport, type ServiceName } from '@teamchat/contracts';
import { CommandHandler, Payload } from '../commands/command-handler.decorator';
import { READINESS_CHECKS, runChecks, type ReadinessCheck } from './readiness';
import { SERVICE_NAME } from '../service-name';

/** A command service's health report: the conjunction of its readiness checks. */
export interface ServiceHealth {
  report(): Promise<HealthReport>;
}

/**
 * A command service's health: served over HTTP for the Kubernetes probes (ServiceHttp), and as
 * its health command over NATS for the gateway's readiness.
 */
export function serviceHealthProvider(service: Exclude<ServiceName, 'gateway'>): Type<ServiceHealth> {
  @Injectable()
  class ServiceHealthProvider implements ServiceHealth {
    constructor(
      @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
      @Inject(SERVICE_NAME) private readonly name: ServiceName,
    ) {}

    @CommandHandler(HealthCommands[service])
    health(@Payload() _payload: unknown): Promise<HealthReport> {
      return this.report();
    }

    async report(): Promise<HealthReport> {
      const checks = await runChecks(this.checks);
      return { service: this.name, ready: Object.values(checks).every(Boolean), checks };
    }
  }
  return ServiceHealthProvider;
}

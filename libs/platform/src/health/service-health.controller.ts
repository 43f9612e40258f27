import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { Payload } from '../commands/command-handler.decorator';
import type { Response } from 'express';
import { HealthCommands, type HealthReport, type ServiceName } from '@teamchat/contracts';
import { CommandHandler } from '../commands/command-handler.decorator';
import { READINESS_CHECKS, runChecks, type ReadinessCheck } from './readiness';
import { SERVICE_NAME } from '../service-name';

/**
 * A command service's health: over HTTP for the Kubernetes probes, and as its health command
 * over NATS for the gateway's readiness.
 */
export function serviceHealthController(service: Exclude<ServiceName, 'gateway'>) {
  @Controller()
  class ServiceHealthController {
    constructor(
      @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
      @Inject(SERVICE_NAME) private readonly name: ServiceName,
    ) {}

    @Get('health/live')
    @HttpCode(200)
    live(): { status: string } {
      return { status: 'ok' };
    }

    @Get('health/ready')
    async ready(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
      const report = await this.report();
      res.status(report.ready ? 200 : 503);
      return report;
    }

    @CommandHandler(HealthCommands[service])
    health(@Payload() _payload: unknown): Promise<HealthReport> {
      return this.report();
    }

    private async report(): Promise<HealthReport> {
      const checks = await runChecks(this.checks);
      return { service: this.name, ready: Object.values(checks).every(Boolean), checks };
    }
  }
  return ServiceHealthController;
}

import { Controller, Get, Inject, Res } from '@nestjs/common';
import { COMMAND_SERVICES, HealthCommands } from '@teamchat/contracts';
import { CommandClient, REDIS, Shutdown, pingRedis, type RedisClient } from '@teamchat/platform';
import type { Response } from 'express';
import { Auth } from '../http/auth-mode.decorator';

const HEALTH_TIMEOUT_MS = 1500;

/**
 * Liveness is trivial; readiness needs Redis, NATS and an answer from every service's health
 * command, each of which reports its own Postgres, Redis and NATS.
 */
@Controller('health')
@Auth('none')
export class GatewayHealthController {
  constructor(
    private readonly commands: CommandClient,
    private readonly shutdown: Shutdown,
    @Inject(REDIS) private readonly redis: RedisClient,
  ) {}

  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) res: Response) {
    const [redis, ...services] = await Promise.all([
      pingRedis(this.redis),
      ...COMMAND_SERVICES.map((service) =>
        this.commands
          .call(HealthCommands[service], {}, { timeoutMs: HEALTH_TIMEOUT_MS })
          .then((report) => report.ready)
          .catch(() => false),
      ),
    ]);
    // `serving` is false from SIGTERM on, so a load balancer stops sending before the server closes.
    const checks: Record<string, boolean> = { serving: !this.shutdown.isDraining(), redis, nats: this.commands.isConnected() };
    COMMAND_SERVICES.forEach((service, i) => (checks[service] = services[i]));
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503);
    return { ready, checks };
  }
}

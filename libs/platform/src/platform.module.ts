import { Global, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { ServiceName } from '@teamchat/contracts';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from './config';
import { CommandClient } from './commands/command-client';
import { CommandConnection } from './commands/command-connection';
import { LOGGER } from './logger';
import { MetricsController, MetricsService } from './metrics';
import { REDIS, createRedis, pingRedis, type RedisClient } from './redis';
import { SERVICE_NAME } from './service-name';
import { READINESS_CHECKS, type ReadinessCheck } from './health/readiness';
import { RateLimiter } from './rate-limiter';
import { EventBus } from './events/event-bus';
import { Shutdown } from './shutdown';
import { stopTracing } from './tracing';

/** Flushes the spans still buffered, last thing at shutdown (a no-op with tracing off). */
@Injectable()
class TracingShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return stopTracing();
  }
}

/** Optional: a service that owns tables provides this to put its database in readiness. */
export const DATABASE_PING = Symbol('DATABASE_PING');

/** What every process has: config, logger, Redis, metrics, a NATS command client, the event bus. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(service: ServiceName, config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: PlatformModule,
      controllers: [MetricsController],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        { provide: SERVICE_NAME, useValue: service },
        {
          provide: REDIS,
          useFactory: () => createRedis(config, config.REDIS_KEY_PREFIX),
        },
        MetricsService,
        CommandClient,
        CommandConnection,
        RateLimiter,
        EventBus,
        Shutdown,
        TracingShutdown,
        {
          provide: READINESS_CHECKS,
          inject: [REDIS, CommandClient, Shutdown, { token: DATABASE_PING, optional: true }],
          useFactory: (redis: RedisClient, commands: CommandClient, shutdown: Shutdown, database?: { ping(): Promise<boolean> }): ReadinessCheck[] => [
            // False from SIGTERM on: no new work while the process drains.
            { name: 'serving', check: async () => !shutdown.isDraining() },
            ...(database ? [{ name: 'postgres', check: () => database.ping() }] : []),
            { name: 'redis', check: () => pingRedis(redis) },
            { name: 'nats', check: async () => commands.isConnected() },
          ],
        },
      ],
      exports: [APP_CONFIG, LOGGER, SERVICE_NAME, REDIS, MetricsService, CommandClient, CommandConnection, RateLimiter, EventBus, Shutdown, READINESS_CHECKS],
    };
  }
}

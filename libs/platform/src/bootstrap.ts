import 'reflect-metadata';
import { Module, type Type } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import type { ServiceName } from '@teamchat/contracts';
import { configureAvatars } from '@teamchat/zulip';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { CommandClient } from './commands/command-client';
import { unhandledCommands } from './commands/command-handler.decorator';
import { CommandServer } from './commands/command-server';
import { serviceHealthProvider } from './health/service-health';
import { ServiceHttp } from './health/service-http';
import { PinoNestLogger, createLogger } from './logger';
import { MetricsService } from './metrics';
import { PlatformModule } from './platform.module';
import { startTracing } from './tracing';

/** Reads the config or exits with the list of what is wrong, before anything else starts. */
export function configOrExit(): AppConfig {
  try {
    const config = loadConfig();
    // Every service computes avatar URLs by the same settings.
    configureAvatars({ enableGravatar: config.ENABLE_GRAVATAR, salt: config.AVATAR_SALT });
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

/**
 * Names the process's Postgres connections after its service (pg and Prisma's adapter read
 * PGAPPNAME), so pg_stat_activity and the server's logs tell whose a backend is. A URL's own
 * `application_name` still wins.
 */
export function nameDatabaseConnections(service: ServiceName): void {
  process.env.PGAPPNAME ??= `teamchat-${service}`;
}

/**
 * Starts a command service: its commands served on NATS by CommandServer in the queue group
 * named after it, plus a small HTTP listener for health and metrics (ServiceHttp: a Nest
 * application context, not a Nest HTTP application, so Express is never loaded). SIGTERM
 * drains the commands in flight, then closes the database pool through the modules' shutdown hooks.
 */
export async function bootstrapService(service: Exclude<ServiceName, 'gateway'>, featureModule: Type<unknown>) {
  const config = configOrExit();
  startTracing(service);
  nameDatabaseConnections(service);
  const logger = createLogger(service, config.LOG_LEVEL);
  const ServiceHealth = serviceHealthProvider(service);
  // Handlers register as their classes are declared: a build that forgot one must not start.
  const unhandled = unhandledCommands(service);
  if (unhandled.length > 0) {
    logger.fatal({ unhandled }, `${service} has no handler for some of its commands`);
    process.exit(70); // EX_SOFTWARE
  }

  @Module({
    imports: [PlatformModule.forRoot(service, config, logger), DiscoveryModule, featureModule],
    providers: [CommandServer, ServiceHealth],
  })
  class ServiceRootModule {}

  // The context is initialised as it is made: CommandServer subscribes to the service's subjects.
  const app = await NestFactory.createApplicationContext(ServiceRootModule, { logger: new PinoNestLogger(logger) });
  // Exit 0 once the hooks have run, rather than Nest's default of re-raising the signal (which
  // ends the process "killed by SIGTERM", reported as a failure by orchestrators and the launcher).
  app.enableShutdownHooks([], { useProcessExit: true });
  await app.get(CommandClient).connect();
  const health = app.get(ServiceHealth);
  const metrics = app.get(MetricsService);
  await new ServiceHttp({ health: () => health.report(), metrics: () => metrics.registry.metrics() }).listen(config.HEALTH_PORT, '0.0.0.0');
  logger.info({ healthPort: config.HEALTH_PORT, queue: service }, `${service} ready`);
  return app;
}

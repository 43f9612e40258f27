import 'reflect-metadata';
import { Module, type Type } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import type { ServiceName } from '@teamchat/contracts';
import { configureAvatars } from '@teamchat/zulip';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { CommandClient } from './commands/command-client';
import { unhandledCommands } from './commands/command-handler.decorator';
import { CommandServer } from './commands/command-server';
import { serviceHealthController } from './health/service-health.controller';
import { PinoNestLogger, createLogger } from './logger';
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
 * named after it, plus a small HTTP listener for health and metrics. SIGTERM drains the
 * commands in flight, then closes the database pool through the modules' shutdown hooks.
 */
export async function bootstrapService(service: Exclude<ServiceName, 'gateway'>, featureModule: Type<unknown>) {
  const config = configOrExit();
  startTracing(service);
  nameDatabaseConnections(service);
  const logger = createLogger(service, config.LOG_LEVEL);

  @Module({
    imports: [PlatformModule.forRoot(service, config, logger), DiscoveryModule, featureModule],
    controllers: [serviceHealthController(service)],
    providers: [CommandServer],
  })
  class ServiceRootModule {}

  const app = await NestFactory.create(ServiceRootModule, { logger: new PinoNestLogger(logger) });
  const unhandled = unhandledCommands(service);
  if (unhandled.length > 0) {
    logger.fatal({ unhandled }, `${service} has no handler for some of its commands`);
    process.exit(70); // EX_SOFTWARE: a build that forgot a handler must not start
  }
  // Exit 0 once the hooks have run, rather than Nest's default of re-raising the signal (which
  // ends the process "killed by SIGTERM", reported as a failure by orchestrators and the launcher).
  app.enableShutdownHooks([], { useProcessExit: true });
  await app.get(CommandClient).connect();
  await app.init(); // CommandServer subscribes to the service's subjects
  await app.listen(config.HEALTH_PORT, '0.0.0.0');
  logger.info({ healthPort: config.HEALTH_PORT, queue: service }, `${service} ready`);
  return app;
}

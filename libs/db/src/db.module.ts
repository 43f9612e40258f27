import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, DATABASE_PING, type AppConfig } from '@teamchat/platform';
import { EventOutbox, OutboxRelay } from './event-outbox';
import { PgService } from './pg.service';
import { PrismaService } from './prisma.service';

/**
 * Provides PrismaService (schema owner, cold paths) and PgService (hot paths) to a service that owns tables, and puts the database in its
 * readiness. The gateway does not import it.
 */
@Global()
@Module({
  providers: [
    {
      provide: PrismaService,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new PrismaService(config.DATABASE_URL, config.DATABASE_COLD_POOL_SIZE),
    },
    {
      provide: PgService,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new PgService(config.DATABASE_URL, config.DATABASE_POOL_SIZE, config.DATABASE_REPLICA_URL),
    },
    { provide: DATABASE_PING, useExisting: PrismaService },
    EventOutbox,
    OutboxRelay,
  ],
  exports: [PrismaService, PgService, DATABASE_PING, EventOutbox],
})
export class DbModule {}

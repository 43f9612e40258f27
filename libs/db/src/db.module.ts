import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { APP_CONFIG, DATABASE_PING, type AppConfig } from '@teamchat/platform';
import { EventOutbox, OutboxRelay } from './event-outbox';
import { PgService, type PlanningOptions } from './pg.service';
import { PrismaService } from './prisma.service';

const providers = (planning: PlanningOptions): Provider[] => [
  {
    provide: PrismaService,
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) => new PrismaService(config.DATABASE_URL, config.DATABASE_COLD_POOL_SIZE),
  },
  {
    provide: PgService,
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) => new PgService(config.DATABASE_URL, config.DATABASE_POOL_SIZE, config.DATABASE_REPLICA_URL, planning),
  },
  { provide: DATABASE_PING, useExisting: PrismaService },
  EventOutbox,
  OutboxRelay,
];

const exported = [PrismaService, PgService, DATABASE_PING, EventOutbox];

/**
 * Provides PrismaService (schema owner, cold paths) and PgService (hot paths) to a service that owns tables, and puts the database in its
 * readiness. The gateway does not import it.
 */
@Global()
@Module({ providers: providers({}), exports: exported })
export class DbModule {
  /** The same, for a service whose hot-path statements are planned once per connection (see PlanningOptions.genericPlans). */
  static withGenericPlans(): DynamicModule {
    return { module: DbModule, global: true, providers: providers({ genericPlans: true }), exports: exported };
  }
}

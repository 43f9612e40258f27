import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';

/** The Prisma client over the pg driver adapter (no native engine). One pool per process. */
@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  constructor(databaseUrl: string, poolSize = 4) {
    super({ adapter: new PrismaPg({ connectionString: databaseUrl, max: poolSize }) });
  }

  /** Readiness: does the database answer? */
  async ping(): Promise<boolean> {
    try {
      await this.$queryRaw`SELECT 1`;
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Last of all on shutdown (not onModuleDestroy, which Nest runs first): the commands and jobs
   * still draining need the database until then.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}

/** Opens a client outside Nest (the admin command line, tests). */
export const openPrisma = (databaseUrl: string): PrismaService => new PrismaService(databaseUrl);

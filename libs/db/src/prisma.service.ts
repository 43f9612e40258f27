import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { refuseIfTooLateToCommit } from '@teamchat/platform';
import { PrismaClient, type Prisma } from './generated/prisma/client';

/** The Prisma client over the pg driver adapter (no native engine). One pool per process. */
@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  constructor(databaseUrl: string, poolSize = 4) {
    super({ adapter: new PrismaPg({ connectionString: databaseUrl, max: poolSize }) });
  }

  /**
   * An interactive transaction that commits only while the command it serves is still awaited
   * (as PgService.transaction): past the caller's deadline it rolls back and answers "not done".
   */
  transaction<T>(work: (tx: Prisma.TransactionClient) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<T> {
    return this.$transaction(async (tx) => {
      const result = await work(tx);
      refuseIfTooLateToCommit();
      return result;
    }, options);
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

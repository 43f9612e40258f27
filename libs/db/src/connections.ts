import { PgService } from './pg.service';
import { openPrisma, type PrismaService } from './prisma.service';

/** Both clients a service's repositories take, opened outside Nest (the admin command line), and their closing. */
export interface DatabaseConnections {
  prisma: PrismaService;
  pg: PgService;
  close(): Promise<void>;
}

export function openDatabase(url: string): DatabaseConnections {
  const prisma = openPrisma(url);
  const pg = new PgService(url);
  return { prisma, pg, close: async () => void (await Promise.all([prisma.$disconnect(), pg.onApplicationShutdown()])) };
}

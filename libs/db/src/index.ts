export * from './prisma.service';
export * from './db.module';
export { Prisma } from './generated/prisma/client';
export type * from './generated/prisma/models';

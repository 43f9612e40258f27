import { Prisma } from '@teamchat/db';

/** A write a unique index refused (Prisma's P2002): another row has the name or key. */
export const isUniqueViolation = (error: unknown): boolean =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

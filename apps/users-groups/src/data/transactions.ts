import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, queryableOf, type Prisma, type Queryable } from '@teamchat/db';

/**
 * A Prisma interactive transaction in progress (the cold paths: organizations, groups,
 * settings, email changes). Repository methods that may join one take it as their last
 * parameter; callers only pass it on.
 */
export type Transaction = Prisma.TransactionClient;

/**
 * A `BEGIN … COMMIT` on one pooled pg connection (user administration: its named statements
 * and the row locks that serialise changes to users). Repository methods that run a named
 * statement inside one take it as their last parameter.
 */
export type PgTransaction = Queryable;

/**
 * A pg read inside either kind of transaction: a Prisma one runs the statement on its own
 * connection (unnamed), never on the pool while it holds a connection.
 */
export const onConnection = (tx: PgTransaction | Transaction): PgTransaction => ('run' in tx ? tx : queryableOf(tx));

/** Options of a Prisma transaction that waits on something slow (a mail sent before commit). */
export interface TransactionOptions {
  maxWait?: number;
  timeout?: number;
}

/**
 * Where users-groups' transactions begin: `work` receives the transaction and hands it to the
 * repositories' methods. Commits when `work` resolves, rolls back when it throws.
 */
@Injectable()
export class Transactions {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  run<T>(work: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T> {
    return this.prisma.transaction(work, options);
  }

  runOnPg<T>(work: (tx: PgTransaction) => Promise<T>): Promise<T> {
    return this.pg.transaction(work);
  }
}

import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, type Prisma, type Queryable } from '@teamchat/db';

/**
 * A transaction in progress: `Transactions.run` opens one and hands it over; a repository method
 * that takes a `tx` runs its statement in it. Only repositories look inside.
 */
export type Tx = Queryable;

/**
 * A transaction of the cold paths (subscribing, channel and folder administration): opened by
 * `Transactions.runCold`, passed as-is to the repository methods that take a `ColdTx`. Only
 * repositories look inside.
 */
export type ColdTx = Prisma.TransactionClient;

/** Options of a cold transaction that may wait long for its locks or run long. */
export interface ColdTxOptions {
  maxWait?: number;
  timeout?: number;
}

/** Writes to several aggregates that commit together: `run(work)`, passing its `tx` to each repository call. */
@Injectable()
export class Transactions {
  constructor(
    private readonly pg: PgService,
    private readonly prisma: PrismaService,
  ) {}

  /** `work` inside one BEGIN … COMMIT on one connection (rolled back if it throws). */
  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.pg.transaction(work);
  }

  /** The same for the cold paths' repository methods (those taking a `ColdTx`). */
  runCold<T>(work: (tx: ColdTx) => Promise<T>, options?: ColdTxOptions): Promise<T> {
    return this.prisma.transaction(work, options);
  }
}

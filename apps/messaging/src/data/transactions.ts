import { Injectable } from '@nestjs/common';
import { PgService, type Queryable } from '@teamchat/db';

/**
 * A transaction in progress: `Transactions.run` opens one and hands it over; a repository method
 * that takes a `tx` runs its statement in it. Only repositories look inside.
 */
export type Tx = Queryable;

/** Writes to several aggregates that commit together: `run(work)`, passing its `tx` to each repository call. */
@Injectable()
export class Transactions {
  constructor(private readonly pg: PgService) {}

  /** `work` inside one BEGIN … COMMIT on one connection (rolled back if it throws). */
  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.pg.transaction(work);
  }
}

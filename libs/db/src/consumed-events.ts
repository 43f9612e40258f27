import { statement, type Queryable } from './pg.service';

/**
 * The ledger of events durable consumers have handled (table `consumed_events`): a consumer
 * whose work is a transaction records the event in it, so a redelivery (the acknowledgement
 * lost, the consumer started again from an earlier event, a second delivery while the first
 * was still being handled) finds it and changes nothing twice.
 */

const claim = statement<{ claimed: boolean }, [consumer: string, eventKey: string]>(
  'consumed-events.claim',
  `INSERT INTO consumed_events (consumer, event_key) VALUES ($1, $2)
   ON CONFLICT DO NOTHING
   RETURNING true AS claimed`,
);

const prune = statement<never, [keepHours: number]>(
  'consumed-events.prune',
  `DELETE FROM consumed_events WHERE consumed_at < now() - $1 * interval '1 hour'`,
);

/**
 * How long an entry is kept: a day past the event stream's own retention (24 h), after which
 * JetStream can deliver the event no more.
 */
const KEEP_HOURS = 48;
const PRUNE_EVERY_MS = 3600_000;
let prunedAt = 0;

/**
 * Records in `tx` that `consumer` handled the event `eventKey`; false if it already had (in a
 * transaction that committed: a concurrent one waits for the other's outcome). Now and then
 * it also drops the entries past keeping, in the same transaction.
 */
export async function claimConsumedEvent(tx: Queryable, consumer: string, eventKey: string): Promise<boolean> {
  const claimed = (await tx.run(claim, consumer, eventKey)).length > 0;
  if (claimed && Date.now() - prunedAt > PRUNE_EVERY_MS) {
    prunedAt = Date.now();
    await tx.run(prune, KEEP_HOURS);
  }
  return claimed;
}

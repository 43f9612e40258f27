-- The transactional outbox (issue 29): a domain event is written in the transaction that makes
-- the change it announces, published to JetStream after the commit (deduplicated there by
-- Nats-Msg-Id "outbox-<id>"), then deleted. Rows left behind by a process that died are
-- published by any service's relay (libs/db/src/event-outbox.ts).
CREATE TABLE "event_outbox" (
  "id" BIGSERIAL PRIMARY KEY,
  "subject" TEXT NOT NULL,
  "realm_id" INTEGER,
  -- The event's JSON, exactly as published.
  "payload" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- Every row is inserted and deleted within moments: vacuum it by row count, not by table size.
ALTER TABLE "event_outbox" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 5000);

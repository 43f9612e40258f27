-- The events a durable consumer has handled, written in the transaction that handled them:
-- a redelivery finds its key and changes nothing again.
CREATE TABLE "consumed_events" (
    "consumer" TEXT NOT NULL,
    "event_key" TEXT NOT NULL,
    "consumed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "consumed_events_pkey" PRIMARY KEY ("consumer","event_key")
);

CREATE INDEX "consumed_events_consumed_at_idx" ON "consumed_events"("consumed_at");

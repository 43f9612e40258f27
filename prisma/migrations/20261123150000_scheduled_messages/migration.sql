-- Scheduled messages (the scheduler service), and the key that makes each one a single message.

-- CreateTable
CREATE TABLE "scheduled_messages" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "sender_id" INTEGER NOT NULL,
    "type" VARCHAR(10) NOT NULL,
    "stream_id" INTEGER,
    "recipient_ids" INTEGER[],
    "topic" VARCHAR(60) NOT NULL DEFAULT '',
    "content" TEXT NOT NULL,
    "rendered_content" TEXT NOT NULL,
    "sending_client" VARCHAR(30) NOT NULL DEFAULT 'API',
    "read_by_sender" BOOLEAN,
    "scheduled_timestamp" TIMESTAMPTZ(6) NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "delivered" BOOLEAN NOT NULL DEFAULT false,
    "delivered_message_id" INTEGER,
    "failed" BOOLEAN NOT NULL DEFAULT false,
    "failure_message" TEXT,
    "date_created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scheduled_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "scheduled_messages_sender_id_delivered_idx" ON "scheduled_messages"("sender_id", "delivered");

-- What the scheduler's recovery sweep reads: the pending ones by time.
CREATE INDEX "scheduled_messages_pending_idx" ON "scheduled_messages" ("scheduled_timestamp") WHERE NOT "delivered" AND NOT "failed";

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "scheduled_message_id" INTEGER;

-- At most one message per scheduled message. Partial, so an ordinary message (no key) costs the index nothing.
CREATE UNIQUE INDEX "messages_scheduled_message_id_key" ON "messages" ("scheduled_message_id") WHERE "scheduled_message_id" IS NOT NULL;

-- Reminders (scheduler: scheduled messages of Zulip's delivery_type REMIND) and submessages (messaging: widgets' state).
-- AlterTable
ALTER TABLE "scheduled_messages" ADD COLUMN     "delivery_type" SMALLINT NOT NULL DEFAULT 1,
ADD COLUMN     "reminder_note" TEXT,
ADD COLUMN     "reminder_target_message_id" INTEGER;

-- CreateTable
CREATE TABLE "submessages" (
    "id" SERIAL NOT NULL,
    "message_id" INTEGER NOT NULL,
    "sender_id" INTEGER NOT NULL,
    "msg_type" TEXT NOT NULL,
    "content" TEXT NOT NULL,

    CONSTRAINT "submessages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "submessages_message_id_id_idx" ON "submessages"("message_id", "id");

-- AddForeignKey
ALTER TABLE "submessages" ADD CONSTRAINT "submessages_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- CreateTable
CREATE TABLE "push_notified_messages" (
    "user_id" INTEGER NOT NULL,
    "message_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_notified_messages_pkey" PRIMARY KEY ("user_id","message_id")
);

-- CreateTable
CREATE TABLE "missed_message_emails" (
    "user_id" INTEGER NOT NULL,
    "message_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "trigger" VARCHAR(60) NOT NULL,
    "due_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "missed_message_emails_pkey" PRIMARY KEY ("user_id","message_id")
);

-- CreateIndex
CREATE INDEX "missed_message_emails_due_at_idx" ON "missed_message_emails"("due_at");

-- CreateTable
CREATE TABLE "missed_message_unsubscribe_keys" (
    "key" VARCHAR(40) NOT NULL,
    "user_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "missed_message_unsubscribe_keys_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "missed_message_unsubscribe_keys_user_id_key" ON "missed_message_unsubscribe_keys"("user_id");

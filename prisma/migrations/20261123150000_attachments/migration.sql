-- Uploaded files and the messages that link them (the uploads service).

-- CreateTable
CREATE TABLE "attachments" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "owner_id" INTEGER NOT NULL,
    "path_id" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "content_type" VARCHAR(255) NOT NULL,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attachments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attachment_messages" (
    "attachment_id" INTEGER NOT NULL,
    "message_id" INTEGER NOT NULL,
    "date_sent" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "attachment_messages_pkey" PRIMARY KEY ("attachment_id","message_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "attachments_path_id_key" ON "attachments"("path_id");

-- CreateIndex
CREATE INDEX "attachments_owner_id_idx" ON "attachments"("owner_id");

-- CreateIndex
CREATE INDEX "attachments_realm_id_idx" ON "attachments"("realm_id");

-- CreateIndex
CREATE INDEX "attachment_messages_message_id_idx" ON "attachment_messages"("message_id");

-- AddForeignKey
ALTER TABLE "attachment_messages" ADD CONSTRAINT "attachment_messages_attachment_id_fkey" FOREIGN KEY ("attachment_id") REFERENCES "attachments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

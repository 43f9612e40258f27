-- CreateTable
CREATE TABLE "push_device_tokens" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "kind" SMALLINT NOT NULL,
    "token" VARCHAR(4096) NOT NULL,
    "ios_app_id" TEXT,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_device_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "push_device_tokens_user_id_kind_token_key" ON "push_device_tokens"("user_id", "kind", "token");

-- Hand-written: rules Prisma's datamodel cannot express.
-- Zulip's PushDeviceToken kinds: 1 APNs, 2 FCM.
ALTER TABLE "push_device_tokens" ADD CONSTRAINT "push_device_tokens_kind_check" CHECK ("kind" IN (1, 2));

-- CreateTable
CREATE TABLE "push_devices" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "push_account_id" BIGINT NOT NULL,
    "token_kind" VARCHAR(10) NOT NULL,
    "push_public_key" BYTEA NOT NULL,
    "bouncer_public_key" TEXT NOT NULL,
    "encrypted_push_registration" TEXT NOT NULL,
    "bouncer_device_id" BIGINT,
    "error_code" VARCHAR(100),
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_devices_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "push_devices_realm_id_idx" ON "push_devices"("realm_id");

-- CreateIndex
CREATE UNIQUE INDEX "push_devices_user_id_push_account_id_key" ON "push_devices"("user_id", "push_account_id");



-- Hand-written: rules Prisma's datamodel cannot express.
-- Token kinds as in the API.
ALTER TABLE "push_devices" ADD CONSTRAINT "push_devices_token_kind_check" CHECK ("token_kind" IN ('fcm', 'apns'));
-- A public key is an X25519 key: 32 bytes.
ALTER TABLE "push_devices" ADD CONSTRAINT "push_devices_push_public_key_check" CHECK (octet_length("push_public_key") = 32);

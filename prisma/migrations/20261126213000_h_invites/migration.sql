-- CreateTable
CREATE TABLE "preregistration_users" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "referred_by_id" INTEGER,
    "multiuse_invite_id" INTEGER,
    "invited_as" SMALLINT NOT NULL DEFAULT 400,
    "stream_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "group_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "include_realm_default_subscriptions" BOOLEAN NOT NULL DEFAULT true,
    "notify_referrer_on_join" BOOLEAN NOT NULL DEFAULT true,
    "status" SMALLINT NOT NULL DEFAULT 0,
    "created_user_id" INTEGER,
    "key" VARCHAR(40) NOT NULL,
    "invited_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6),

    CONSTRAINT "preregistration_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "multiuse_invites" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "referred_by_id" INTEGER NOT NULL,
    "invited_as" SMALLINT NOT NULL DEFAULT 400,
    "stream_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "group_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "include_realm_default_subscriptions" BOOLEAN NOT NULL DEFAULT false,
    "status" SMALLINT NOT NULL DEFAULT 0,
    "key" VARCHAR(40) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6),

    CONSTRAINT "multiuse_invites_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "preregistration_users_key_key" ON "preregistration_users"("key");

-- CreateIndex
CREATE INDEX "preregistration_users_realm_id_invited_at_idx" ON "preregistration_users"("realm_id", "invited_at");

-- CreateIndex
CREATE INDEX "preregistration_users_referred_by_id_idx" ON "preregistration_users"("referred_by_id");

-- CreateIndex
CREATE UNIQUE INDEX "multiuse_invites_key_key" ON "multiuse_invites"("key");

-- CreateIndex
CREATE INDEX "multiuse_invites_realm_id_idx" ON "multiuse_invites"("realm_id");

-- AddForeignKey
ALTER TABLE "preregistration_users" ADD CONSTRAINT "preregistration_users_realm_id_fkey" FOREIGN KEY ("realm_id") REFERENCES "realms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "preregistration_users" ADD CONSTRAINT "preregistration_users_referred_by_id_fkey" FOREIGN KEY ("referred_by_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "preregistration_users" ADD CONSTRAINT "preregistration_users_multiuse_invite_id_fkey" FOREIGN KEY ("multiuse_invite_id") REFERENCES "multiuse_invites"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "multiuse_invites" ADD CONSTRAINT "multiuse_invites_realm_id_fkey" FOREIGN KEY ("realm_id") REFERENCES "realms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "multiuse_invites" ADD CONSTRAINT "multiuse_invites_referred_by_id_fkey" FOREIGN KEY ("referred_by_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Zulip's roles only (PreregistrationUser.INVITE_AS).
ALTER TABLE "preregistration_users" ADD CONSTRAINT "preregistration_users_invited_as_check" CHECK ("invited_as" IN (100, 200, 300, 400, 600));
ALTER TABLE "multiuse_invites" ADD CONSTRAINT "multiuse_invites_invited_as_check" CHECK ("invited_as" IN (100, 200, 300, 400, 600));

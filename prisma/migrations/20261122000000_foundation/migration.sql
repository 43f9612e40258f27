-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "realms" (
    "id" SERIAL NOT NULL,
    "subdomain" VARCHAR(40) NOT NULL,
    "name" VARCHAR(40) NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "deactivated" BOOLEAN NOT NULL DEFAULT false,
    "enable_spectator_access" BOOLEAN NOT NULL DEFAULT false,
    "password_auth_enabled" BOOLEAN NOT NULL DEFAULT true,
    "email_changes_disabled" BOOLEAN NOT NULL DEFAULT false,
    "user_settings_defaults" JSONB NOT NULL DEFAULT '{}',
    "date_created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "realms_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "delivery_email" VARCHAR(254) NOT NULL,
    "full_name" VARCHAR(100) NOT NULL,
    "role" SMALLINT NOT NULL DEFAULT 400,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "is_bot" BOOLEAN NOT NULL DEFAULT false,
    "bot_type" SMALLINT,
    "bot_owner_id" INTEGER,
    "timezone" VARCHAR(40) NOT NULL DEFAULT '',
    "avatar_source" CHAR(1) NOT NULL DEFAULT 'G',
    "avatar_version" INTEGER NOT NULL DEFAULT 1,
    "date_joined" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settings" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "user_id" INTEGER NOT NULL,
    "key" VARCHAR(32) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "password_credentials" (
    "user_id" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "password_credentials_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "custom_profile_fields" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" VARCHAR(40) NOT NULL,
    "hint" VARCHAR(80) NOT NULL DEFAULT '',
    "field_type" SMALLINT NOT NULL,
    "field_data" TEXT NOT NULL DEFAULT '',
    "order" INTEGER NOT NULL DEFAULT 0,
    "display_in_profile_summary" BOOLEAN NOT NULL DEFAULT false,
    "required" BOOLEAN NOT NULL DEFAULT false,
    "editable_by_user" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "custom_profile_fields_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_profile_field_values" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "field_id" INTEGER NOT NULL,
    "value" TEXT NOT NULL,
    "rendered_value" TEXT,

    CONSTRAINT "custom_profile_field_values_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "realms_subdomain_key" ON "realms"("subdomain");

-- CreateIndex
CREATE INDEX "users_realm_id_idx" ON "users"("realm_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_key" ON "api_keys"("key");

-- CreateIndex
CREATE UNIQUE INDEX "custom_profile_fields_realm_id_name_key" ON "custom_profile_fields"("realm_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "custom_profile_field_values_user_id_field_id_key" ON "custom_profile_field_values"("user_id", "field_id");

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_realm_id_fkey" FOREIGN KEY ("realm_id") REFERENCES "realms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_bot_owner_id_fkey" FOREIGN KEY ("bot_owner_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "password_credentials" ADD CONSTRAINT "password_credentials_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_profile_fields" ADD CONSTRAINT "custom_profile_fields_realm_id_fkey" FOREIGN KEY ("realm_id") REFERENCES "realms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_profile_field_values" ADD CONSTRAINT "custom_profile_field_values_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_profile_field_values" ADD CONSTRAINT "custom_profile_field_values_field_id_fkey" FOREIGN KEY ("field_id") REFERENCES "custom_profile_fields"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written: rules Prisma's datamodel cannot express.
-- Zulip's roles: 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest.
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("role" IN (100, 200, 300, 400, 600));
-- An address belongs to at most one account per organization, whatever its case.
CREATE UNIQUE INDEX "users_realm_id_delivery_email_key" ON "users" ("realm_id", lower("delivery_email"));

-- CreateTable
CREATE TABLE "realm_emoji" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" VARCHAR(60) NOT NULL,
    "author_id" INTEGER,
    "file_name" VARCHAR(255) NOT NULL,
    "deactivated" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "realm_emoji_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_status" (
    "user_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "status_text" VARCHAR(60) NOT NULL DEFAULT '',
    "emoji_name" VARCHAR(100) NOT NULL DEFAULT '',
    "emoji_code" VARCHAR(100) NOT NULL DEFAULT '',
    "reaction_type" VARCHAR(30) NOT NULL DEFAULT 'unicode_emoji',
    "updated" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_status_pkey" PRIMARY KEY ("user_id")
);

-- CreateIndex
CREATE INDEX "realm_emoji_realm_id_idx" ON "realm_emoji"("realm_id");

-- CreateIndex
CREATE INDEX "user_status_realm_id_idx" ON "user_status"("realm_id");

-- AddForeignKey
ALTER TABLE "realm_emoji" ADD CONSTRAINT "realm_emoji_realm_id_fkey" FOREIGN KEY ("realm_id") REFERENCES "realms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "realm_emoji" ADD CONSTRAINT "realm_emoji_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;



-- Hand-written: rules Prisma's datamodel cannot express.
-- Among an organization's active custom emoji a name is unique, a deactivated one may share it.
CREATE UNIQUE INDEX "realm_emoji_realm_id_name_active_key" ON "realm_emoji" ("realm_id", "name") WHERE NOT "deactivated";
-- Status emoji types as in the API.
ALTER TABLE "user_status" ADD CONSTRAINT "user_status_reaction_type_check" CHECK ("reaction_type" IN ('unicode_emoji', 'realm_emoji', 'zulip_extra_emoji'));

-- CreateTable
CREATE TABLE "streams" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" VARCHAR(60) NOT NULL,
    "description" VARCHAR(1024) NOT NULL DEFAULT '',
    "rendered_description" TEXT NOT NULL DEFAULT '',
    "invite_only" BOOLEAN NOT NULL DEFAULT false,
    "history_public_to_subscribers" BOOLEAN NOT NULL DEFAULT true,
    "is_web_public" BOOLEAN NOT NULL DEFAULT false,
    "is_archived" BOOLEAN NOT NULL DEFAULT false,
    "creator_id" INTEGER,
    "first_message_id" INTEGER,
    "date_created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "streams_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "stream_id" INTEGER NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "color" VARCHAR(10) NOT NULL DEFAULT '#c2c2c2',
    "is_muted" BOOLEAN NOT NULL DEFAULT false,
    "pin_to_top" BOOLEAN NOT NULL DEFAULT false,
    "desktop_notifications" BOOLEAN,
    "audible_notifications" BOOLEAN,
    "push_notifications" BOOLEAN,
    "email_notifications" BOOLEAN,
    "wildcard_mentions_notify" BOOLEAN,
    "subscribed_after_message_id" INTEGER NOT NULL DEFAULT 0,
    "date_subscribed" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "direct_message_groups" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "member_key" TEXT NOT NULL,
    "member_ids" INTEGER[],

    CONSTRAINT "direct_message_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "messages" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "sender_id" INTEGER NOT NULL,
    "stream_id" INTEGER,
    "dm_group_id" INTEGER,
    "topic" VARCHAR(60) NOT NULL DEFAULT '',
    "content" TEXT NOT NULL,
    "rendered_content" TEXT NOT NULL,
    "sending_client" VARCHAR(30) NOT NULL DEFAULT 'API',
    "date_sent" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_messages" (
    "user_id" INTEGER NOT NULL,
    "message_id" INTEGER NOT NULL,
    "flags" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "user_messages_pkey" PRIMARY KEY ("user_id","message_id")
);

-- CreateTable
CREATE TABLE "user_topics" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "stream_id" INTEGER NOT NULL,
    "topic_name" VARCHAR(60) NOT NULL,
    "visibility_policy" SMALLINT NOT NULL,
    "last_updated" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_topics_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "drafts" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "type" VARCHAR(10) NOT NULL,
    "to" INTEGER[],
    "topic" VARCHAR(60) NOT NULL DEFAULT '',
    "content" TEXT NOT NULL,
    "last_edit_time" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "drafts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "streams_realm_id_idx" ON "streams"("realm_id");

-- CreateIndex
CREATE INDEX "subscriptions_stream_id_active_idx" ON "subscriptions"("stream_id", "active");

-- CreateIndex
CREATE UNIQUE INDEX "subscriptions_user_id_stream_id_key" ON "subscriptions"("user_id", "stream_id");

-- CreateIndex
CREATE UNIQUE INDEX "direct_message_groups_realm_id_member_key_key" ON "direct_message_groups"("realm_id", "member_key");

-- CreateIndex
CREATE INDEX "messages_realm_id_stream_id_id_idx" ON "messages"("realm_id", "stream_id", "id");

-- CreateIndex
CREATE INDEX "messages_dm_group_id_id_idx" ON "messages"("dm_group_id", "id");

-- CreateIndex
CREATE INDEX "user_messages_message_id_idx" ON "user_messages"("message_id");

-- CreateIndex
CREATE INDEX "user_topics_stream_id_topic_name_idx" ON "user_topics"("stream_id", "topic_name");

-- CreateIndex
CREATE UNIQUE INDEX "user_topics_user_id_stream_id_topic_name_key" ON "user_topics"("user_id", "stream_id", "topic_name");

-- CreateIndex
CREATE INDEX "drafts_user_id_last_edit_time_idx" ON "drafts"("user_id", "last_edit_time");

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_stream_id_fkey" FOREIGN KEY ("stream_id") REFERENCES "streams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_messages" ADD CONSTRAINT "user_messages_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written: rules Prisma's datamodel cannot express.
-- Channel names are unique per organization whatever their case.
CREATE UNIQUE INDEX "streams_realm_id_lower_name_key" ON "streams" ("realm_id", lower("name"));
-- Topics match case-insensitively, as in Zulip, and a topic is read newest first.
CREATE INDEX "messages_stream_id_lower_topic_id_idx" ON "messages" ("stream_id", lower("topic"), "id");
-- A message goes to a channel or to a direct-message group, never both or neither.
ALTER TABLE "messages" ADD CONSTRAINT "messages_one_recipient_check" CHECK (("stream_id" IS NULL) <> ("dm_group_id" IS NULL));
-- Draft types as in the API.
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_type_check" CHECK ("type" IN ('', 'stream', 'private'));

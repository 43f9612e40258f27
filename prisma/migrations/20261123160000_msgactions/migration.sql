-- Message actions: the organization's editing and deletion settings, each message's edit history,
-- and reactions.

-- AlterTable
ALTER TABLE "realms" ADD COLUMN     "allow_message_editing" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "can_delete_any_message_group_id" INTEGER,
ADD COLUMN     "can_delete_own_message_group_id" INTEGER,
ADD COLUMN     "can_move_messages_between_channels_group_id" INTEGER,
ADD COLUMN     "can_move_messages_between_topics_group_id" INTEGER,
ADD COLUMN     "can_resolve_topics_group_id" INTEGER,
ADD COLUMN     "message_content_delete_limit_seconds" INTEGER,
ADD COLUMN     "message_content_edit_limit_seconds" INTEGER DEFAULT 600,
ADD COLUMN     "move_messages_between_streams_limit_seconds" INTEGER DEFAULT 604800,
ADD COLUMN     "move_messages_within_stream_limit_seconds" INTEGER DEFAULT 604800;

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "edit_history" JSONB,
ADD COLUMN     "last_edit_time" TIMESTAMPTZ(6),
ADD COLUMN     "last_move_time" TIMESTAMPTZ(6);

-- CreateTable
CREATE TABLE "reactions" (
    "id" SERIAL NOT NULL,
    "message_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "emoji_name" VARCHAR(100) NOT NULL,
    "emoji_code" VARCHAR(100) NOT NULL,
    "reaction_type" VARCHAR(30) NOT NULL,

    CONSTRAINT "reactions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "reactions_message_id_idx" ON "reactions"("message_id");

-- CreateIndex
CREATE UNIQUE INDEX "reactions_user_id_message_id_emoji_code_reaction_type_key" ON "reactions"("user_id", "message_id", "emoji_code", "reaction_type");

-- AddForeignKey
ALTER TABLE "reactions" ADD CONSTRAINT "reactions_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Channel folders, and each channel's folder, retention and group-based permissions.

-- CreateTable
CREATE TABLE "channel_folders" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" VARCHAR(60) NOT NULL,
    "description" VARCHAR(1024) NOT NULL DEFAULT '',
    "rendered_description" TEXT NOT NULL DEFAULT '',
    "creator_id" INTEGER,
    "date_created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "is_archived" BOOLEAN NOT NULL DEFAULT false,
    "order" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "channel_folders_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "channel_folders_realm_id_idx" ON "channel_folders"("realm_id");

-- A name is unique among an organization's unarchived folders, whatever its case.
CREATE UNIQUE INDEX "channel_folders_realm_id_name_unarchived_key" ON "channel_folders" ("realm_id", lower("name")) WHERE NOT "is_archived";

-- AlterTable
ALTER TABLE "streams" ADD COLUMN     "folder_id" INTEGER,
ADD COLUMN     "message_retention_days" INTEGER,
ADD COLUMN     "can_add_subscribers_group_id" INTEGER,
ADD COLUMN     "can_administer_channel_group_id" INTEGER,
ADD COLUMN     "can_remove_subscribers_group_id" INTEGER,
ADD COLUMN     "can_send_message_group_id" INTEGER,
ADD COLUMN     "can_subscribe_group_id" INTEGER,
ADD COLUMN     "can_delete_any_message_group_id" INTEGER,
ADD COLUMN     "can_delete_own_message_group_id" INTEGER,
ADD COLUMN     "can_move_messages_within_channel_group_id" INTEGER,
ADD COLUMN     "can_resolve_topics_group_id" INTEGER;

-- AddForeignKey
ALTER TABLE "streams" ADD CONSTRAINT "streams_folder_id_fkey" FOREIGN KEY ("folder_id") REFERENCES "channel_folders"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Zulip's defaults for a channel's permissions (zerver/models/streams.py): its creator alone
-- administers it (an anonymous group, or role:nobody without a creator), administrators remove
-- subscribers, everyone sends and deletes their own messages, nobody else does the rest.
-- (Prisma runs a migration as statements split at every semicolon, so the function is one SQL
-- statement and the trigger's body spells its semicolons as \073.)
CREATE FUNCTION stream_permission_defaults(realm INTEGER, creator INTEGER)
RETURNS TABLE (add_subscribers INTEGER, administer INTEGER, remove_subscribers INTEGER, send_message INTEGER,
               subscribe INTEGER, delete_any INTEGER, delete_own INTEGER, move_within INTEGER, resolve_topics INTEGER)
LANGUAGE sql AS $body$
  WITH system AS (SELECT name, id FROM user_groups WHERE realm_id = realm AND is_system_group),
  administrators AS (INSERT INTO user_groups (realm_id) SELECT realm WHERE creator IS NOT NULL RETURNING id),
  administrator AS (INSERT INTO user_group_members (group_id, user_id) SELECT id, creator FROM administrators RETURNING group_id)
  SELECT
    (SELECT id FROM system WHERE name = 'role:nobody'),
    coalesce((SELECT group_id FROM administrator), (SELECT id FROM system WHERE name = 'role:nobody')),
    (SELECT id FROM system WHERE name = 'role:administrators'),
    (SELECT id FROM system WHERE name = 'role:everyone'),
    (SELECT id FROM system WHERE name = 'role:nobody'),
    (SELECT id FROM system WHERE name = 'role:nobody'),
    (SELECT id FROM system WHERE name = 'role:everyone'),
    (SELECT id FROM system WHERE name = 'role:nobody'),
    (SELECT id FROM system WHERE name = 'role:nobody')
$body$;

CREATE FUNCTION streams_permission_defaults() RETURNS TRIGGER LANGUAGE plpgsql AS E'DECLARE d RECORD\073 BEGIN SELECT * INTO d FROM stream_permission_defaults(NEW.realm_id, CASE WHEN NEW.can_administer_channel_group_id IS NULL THEN NEW.creator_id END)\073 NEW.can_add_subscribers_group_id := coalesce(NEW.can_add_subscribers_group_id, d.add_subscribers)\073 NEW.can_administer_channel_group_id := coalesce(NEW.can_administer_channel_group_id, d.administer)\073 NEW.can_remove_subscribers_group_id := coalesce(NEW.can_remove_subscribers_group_id, d.remove_subscribers)\073 NEW.can_send_message_group_id := coalesce(NEW.can_send_message_group_id, d.send_message)\073 NEW.can_subscribe_group_id := coalesce(NEW.can_subscribe_group_id, d.subscribe)\073 NEW.can_delete_any_message_group_id := coalesce(NEW.can_delete_any_message_group_id, d.delete_any)\073 NEW.can_delete_own_message_group_id := coalesce(NEW.can_delete_own_message_group_id, d.delete_own)\073 NEW.can_move_messages_within_channel_group_id := coalesce(NEW.can_move_messages_within_channel_group_id, d.move_within)\073 NEW.can_resolve_topics_group_id := coalesce(NEW.can_resolve_topics_group_id, d.resolve_topics)\073 RETURN NEW\073 END';

CREATE TRIGGER streams_permission_defaults BEFORE INSERT ON streams
  FOR EACH ROW EXECUTE FUNCTION streams_permission_defaults();

UPDATE streams s SET
  can_add_subscribers_group_id = d.add_subscribers,
  can_administer_channel_group_id = d.administer,
  can_remove_subscribers_group_id = d.remove_subscribers,
  can_send_message_group_id = d.send_message,
  can_subscribe_group_id = d.subscribe,
  can_delete_any_message_group_id = d.delete_any,
  can_delete_own_message_group_id = d.delete_own,
  can_move_messages_within_channel_group_id = d.move_within,
  can_resolve_topics_group_id = d.resolve_topics
FROM streams s2 CROSS JOIN LATERAL stream_permission_defaults(s2.realm_id, s2.creator_id) d
WHERE s.id = s2.id;

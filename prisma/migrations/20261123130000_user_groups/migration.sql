-- User groups (system groups created with every organization by the database), the
-- organization's group-based permissions, navigation views and pending email changes.

-- AlterTable
ALTER TABLE "realms" DROP COLUMN "can_mention_many_users_role",
ADD COLUMN     "waiting_period_threshold" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "can_mention_many_users_group_id" INTEGER,
ADD COLUMN     "can_create_groups_id" INTEGER,
ADD COLUMN     "can_manage_all_groups_id" INTEGER;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "can_change_user_emails" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "user_groups" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" VARCHAR(100),
    "description" TEXT NOT NULL DEFAULT '',
    "is_system_group" BOOLEAN NOT NULL DEFAULT false,
    "deactivated" BOOLEAN NOT NULL DEFAULT false,
    "creator_id" INTEGER,
    "date_created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "can_add_members_group_id" INTEGER,
    "can_join_group_id" INTEGER,
    "can_leave_group_id" INTEGER,
    "can_manage_group_id" INTEGER,
    "can_mention_group_id" INTEGER,
    "can_remove_members_group_id" INTEGER,

    CONSTRAINT "user_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_group_members" (
    "group_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,

    CONSTRAINT "user_group_members_pkey" PRIMARY KEY ("group_id","user_id")
);

-- CreateTable
CREATE TABLE "user_group_subgroups" (
    "supergroup_id" INTEGER NOT NULL,
    "subgroup_id" INTEGER NOT NULL,

    CONSTRAINT "user_group_subgroups_pkey" PRIMARY KEY ("supergroup_id","subgroup_id")
);

-- CreateTable
CREATE TABLE "navigation_views" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "fragment" VARCHAR(255) NOT NULL,
    "is_pinned" BOOLEAN NOT NULL,
    "name" VARCHAR(100),

    CONSTRAINT "navigation_views_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_change_requests" (
    "key" VARCHAR(40) NOT NULL,
    "user_id" INTEGER NOT NULL,
    "old_email" VARCHAR(254) NOT NULL,
    "new_email" VARCHAR(254) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "email_change_requests_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "user_groups_realm_id_idx" ON "user_groups"("realm_id");

-- CreateIndex
CREATE UNIQUE INDEX "user_groups_realm_id_name_key" ON "user_groups"("realm_id", "name");

-- CreateIndex
CREATE INDEX "user_group_members_user_id_idx" ON "user_group_members"("user_id");

-- CreateIndex
CREATE INDEX "user_group_subgroups_subgroup_id_idx" ON "user_group_subgroups"("subgroup_id");

-- CreateIndex
CREATE UNIQUE INDEX "navigation_views_user_id_fragment_key" ON "navigation_views"("user_id", "fragment");

-- CreateIndex
CREATE INDEX "email_change_requests_user_id_idx" ON "email_change_requests"("user_id");

-- AddForeignKey
ALTER TABLE "user_groups" ADD CONSTRAINT "user_groups_realm_id_fkey" FOREIGN KEY ("realm_id") REFERENCES "realms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_group_members" ADD CONSTRAINT "user_group_members_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "user_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_group_members" ADD CONSTRAINT "user_group_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_group_subgroups" ADD CONSTRAINT "user_group_subgroups_supergroup_id_fkey" FOREIGN KEY ("supergroup_id") REFERENCES "user_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_group_subgroups" ADD CONSTRAINT "user_group_subgroups_subgroup_id_fkey" FOREIGN KEY ("subgroup_id") REFERENCES "user_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "navigation_views" ADD CONSTRAINT "navigation_views_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_change_requests" ADD CONSTRAINT "email_change_requests_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A group never contains itself directly (deeper cycles are refused by the service).
ALTER TABLE "user_group_subgroups" ADD CONSTRAINT "user_group_subgroups_not_self_check" CHECK ("supergroup_id" <> "subgroup_id");
-- Named groups only: anonymous ones have no settings of their own.
ALTER TABLE "user_groups" ADD CONSTRAINT "user_groups_named_settings_check" CHECK (
  "name" IS NOT NULL OR ("can_add_members_group_id" IS NULL AND "can_join_group_id" IS NULL AND "can_leave_group_id" IS NULL
    AND "can_manage_group_id" IS NULL AND "can_mention_group_id" IS NULL AND "can_remove_members_group_id" IS NULL)
);

-- Every organization has Zulip's system groups, nested as Zulip nests them
-- (owners ⊂ administrators ⊂ moderators ⊂ fullmembers ⊂ members ⊂ everyone ⊂ internet, and nobody
-- is empty), whose own permission settings are role:nobody, and the organization's group-based
-- permissions start at Zulip's defaults. Created here for every organization, so whatever
-- inserts a realm (the service, the admin command line, a test) gets them.
-- (Prisma runs a migration as statements split at every semicolon, even in a function's body, so
-- the function is one SQL statement and the trigger's body spells its semicolons as \073.)
CREATE FUNCTION create_system_groups(realm INTEGER) RETURNS VOID LANGUAGE sql AS $body$
  WITH named AS (
    SELECT t.position, t.name, t.description, nextval(pg_get_serial_sequence('user_groups', 'id'))::INTEGER AS id
    FROM unnest(
      ARRAY['role:nobody', 'role:owners', 'role:administrators', 'role:moderators',
            'role:fullmembers', 'role:members', 'role:everyone', 'role:internet'],
      ARRAY['Nobody', 'Owners of this organization', 'Administrators of this organization, including owners',
            'Moderators of this organization, including administrators',
            'Members of this organization, not including new accounts and guests',
            'Members of this organization, not including guests', 'Everyone in this organization, including guests',
            'Everyone on the Internet']
    ) WITH ORDINALITY AS t(name, description, position)
  ),
  nobody AS (SELECT id FROM named WHERE position = 1),
  groups AS (
    INSERT INTO user_groups (id, realm_id, name, description, is_system_group, can_add_members_group_id, can_join_group_id,
                             can_leave_group_id, can_manage_group_id, can_mention_group_id, can_remove_members_group_id)
    SELECT named.id, realm, named.name, named.description, true, nobody.id, nobody.id, nobody.id, nobody.id, nobody.id, nobody.id
    FROM named, nobody
    RETURNING id
  ),
  nesting AS (
    INSERT INTO user_group_subgroups (supergroup_id, subgroup_id)
    SELECT supergroup.id, subgroup.id FROM named supergroup JOIN named subgroup ON subgroup.position = supergroup.position - 1
    WHERE supergroup.position >= 3
    RETURNING supergroup_id
  )
  UPDATE realms SET
    can_mention_many_users_group_id = (SELECT id FROM named WHERE name = 'role:administrators'),
    can_create_groups_id = (SELECT id FROM named WHERE name = 'role:members'),
    can_manage_all_groups_id = (SELECT id FROM named WHERE name = 'role:owners')
  WHERE id = realm AND (SELECT count(*) FROM groups) = 8 AND (SELECT count(*) FROM nesting) = 6
$body$;

CREATE FUNCTION realms_create_system_groups() RETURNS TRIGGER LANGUAGE plpgsql AS E'BEGIN PERFORM create_system_groups(NEW.id)\073 RETURN NULL\073 END';

CREATE TRIGGER realms_create_system_groups AFTER INSERT ON realms
  FOR EACH ROW EXECUTE FUNCTION realms_create_system_groups();

SELECT create_system_groups(id) FROM realms;

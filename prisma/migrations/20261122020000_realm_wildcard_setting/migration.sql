-- AlterTable
ALTER TABLE "realms" ADD COLUMN     "can_mention_many_users_role" SMALLINT NOT NULL DEFAULT 200;


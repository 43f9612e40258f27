-- Presence: the durable copy of what the presence service keeps live in Redis, written by its
-- flush worker (a row per user who ever reported presence) and read back when Redis lost it.
CREATE TABLE "user_presence" (
    "user_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "last_active_time" TIMESTAMPTZ(6),
    "last_connected_time" TIMESTAMPTZ(6) NOT NULL,
    "last_update_id" BIGINT NOT NULL,

    CONSTRAINT "user_presence_pkey" PRIMARY KEY ("user_id")
);

CREATE INDEX "user_presence_realm_id_idx" ON "user_presence"("realm_id");

-- Default channels (Zulip's DefaultStream): new users are subscribed to them, one flag per channel.
ALTER TABLE "streams" ADD COLUMN "is_default" BOOLEAN NOT NULL DEFAULT false;

-- The secret part of a channel's incoming email address (Zulip's Stream.email_token: 32 hex digits).
ALTER TABLE "streams" ADD COLUMN "email_token" VARCHAR(32) NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', '');

-- Hand-written: the organization's default channels, found without a scan.
CREATE INDEX "streams_realm_id_default_idx" ON "streams"("realm_id") WHERE "is_default";

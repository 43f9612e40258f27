-- Organization settings behind read receipts, message reports and video calls (issue 28),
-- at Zulip's defaults for a new organization that needs an invitation.
ALTER TABLE "realms"
  ADD COLUMN "enable_read_receipts" BOOLEAN NOT NULL DEFAULT true,
  ADD COLUMN "moderation_request_channel_id" INTEGER REFERENCES "streams"("id") ON DELETE SET NULL,
  ADD COLUMN "video_chat_provider" SMALLINT NOT NULL DEFAULT 1,
  ADD COLUMN "jitsi_server_url" TEXT;

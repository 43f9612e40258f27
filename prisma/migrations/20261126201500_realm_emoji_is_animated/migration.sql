-- Custom emoji uploads (issue 27): an animated emoji has a still PNG beside it (Zulip's RealmEmoji.is_animated).
ALTER TABLE "realm_emoji" ADD COLUMN "is_animated" BOOLEAN NOT NULL DEFAULT false;

-- Organization settings changed through PATCH /realm (issue 27), at Zulip's defaults for a new
-- organization (zerver/models/realms.py), the organization's icon and logos, and allowed email domains.
ALTER TABLE "realms"
  ADD COLUMN "invite_required" BOOLEAN NOT NULL DEFAULT true,
  ADD COLUMN "emails_restricted_to_domains" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "disallow_disposable_email_addresses" BOOLEAN NOT NULL DEFAULT true,
  ADD COLUMN "default_language" VARCHAR(50) NOT NULL DEFAULT 'en',
  ADD COLUMN "message_edit_history_visibility_policy" SMALLINT NOT NULL DEFAULT 1,
  ADD COLUMN "message_retention_days" INTEGER NOT NULL DEFAULT -1,
  ADD COLUMN "topics_policy" SMALLINT NOT NULL DEFAULT 2,
  ADD COLUMN "name_changes_disabled" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "avatar_changes_disabled" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "require_unique_names" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "enable_guest_user_indicator" BOOLEAN NOT NULL DEFAULT true,
  ADD COLUMN "enable_guest_user_dm_warning" BOOLEAN NOT NULL DEFAULT true,
  ADD COLUMN "send_welcome_emails" BOOLEAN NOT NULL DEFAULT false, -- no welcome mail is sent here (Zulip: true)
  ADD COLUMN "welcome_message_custom_text" TEXT NOT NULL DEFAULT '',
  ADD COLUMN "digest_emails_enabled" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "digest_weekday" SMALLINT NOT NULL DEFAULT 1,
  ADD COLUMN "message_content_allowed_in_email_notifications" BOOLEAN NOT NULL DEFAULT true,
  ADD COLUMN "require_e2ee_push_notifications" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "org_type" SMALLINT NOT NULL DEFAULT 0,
  ADD COLUMN "default_code_block_language" TEXT NOT NULL DEFAULT '',
  ADD COLUMN "giphy_rating" SMALLINT NOT NULL DEFAULT 2,
  ADD COLUMN "want_advertise_in_communities_directory" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "new_stream_announcements_stream_id" INTEGER REFERENCES "streams"("id") ON DELETE SET NULL,
  ADD COLUMN "signup_announcements_stream_id" INTEGER REFERENCES "streams"("id") ON DELETE SET NULL,
  ADD COLUMN "zulip_update_announcements_stream_id" INTEGER REFERENCES "streams"("id") ON DELETE SET NULL,
  ADD COLUMN "icon_source" CHAR(1) NOT NULL DEFAULT 'G',
  ADD COLUMN "icon_version" INTEGER NOT NULL DEFAULT 1,
  ADD COLUMN "logo_source" CHAR(1) NOT NULL DEFAULT 'D',
  ADD COLUMN "logo_version" INTEGER NOT NULL DEFAULT 1,
  ADD COLUMN "night_logo_source" CHAR(1) NOT NULL DEFAULT 'D',
  ADD COLUMN "night_logo_version" INTEGER NOT NULL DEFAULT 1,
  -- Group-based permissions: null is the setting's default system group (as the message-action ones).
  ADD COLUMN "can_access_all_users_group_id" INTEGER,
  ADD COLUMN "can_add_custom_emoji_group_id" INTEGER,
  ADD COLUMN "can_add_subscribers_group_id" INTEGER,
  ADD COLUMN "can_create_bots_group_id" INTEGER,
  ADD COLUMN "can_create_write_only_bots_group_id" INTEGER,
  ADD COLUMN "can_create_private_channel_group_id" INTEGER,
  ADD COLUMN "can_create_public_channel_group_id" INTEGER,
  ADD COLUMN "can_create_web_public_channel_group_id" INTEGER,
  ADD COLUMN "can_invite_users_group_id" INTEGER,
  ADD COLUMN "can_manage_billing_group_id" INTEGER,
  ADD COLUMN "can_set_delete_message_policy_group_id" INTEGER,
  ADD COLUMN "can_set_topics_policy_group_id" INTEGER,
  ADD COLUMN "can_summarize_topics_group_id" INTEGER,
  ADD COLUMN "create_multiuse_invite_group_id" INTEGER,
  ADD COLUMN "direct_message_initiator_group_id" INTEGER,
  ADD COLUMN "direct_message_permission_group_id" INTEGER;

-- The email domains new users' addresses may have when emails_restricted_to_domains is on (Zulip's RealmDomain).
CREATE TABLE "realm_domains" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "domain" VARCHAR(80) NOT NULL,
    "allow_subdomains" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "realm_domains_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "realm_domains_realm_id_domain_key" ON "realm_domains"("realm_id", "domain");

ALTER TABLE "realm_domains" ADD CONSTRAINT "realm_domains_realm_id_fkey" FOREIGN KEY ("realm_id") REFERENCES "realms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

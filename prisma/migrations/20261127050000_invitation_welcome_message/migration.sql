-- An invitation's own Welcome Bot custom text (Zulip 11.0, feature level 416): null the organization's, "" none.
ALTER TABLE "preregistration_users" ADD COLUMN "welcome_message_custom_text" TEXT;
ALTER TABLE "multiuse_invites" ADD COLUMN "welcome_message_custom_text" TEXT;

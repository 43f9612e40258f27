import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, statement, type RealmModel } from '@teamchat/db';
import type { Transaction } from './transactions';

/** What selecting an organization by host needs of it (see RealmDirectory.toInfo). */
export type RealmRow = Pick<
  RealmModel,
  'id' | 'subdomain' | 'name' | 'description' | 'deactivated' | 'enableSpectatorAccess' | 'passwordAuthEnabled' | 'iconSource' | 'iconVersion'
>;

/** The organization at a subdomain ("" for the root domain). */
const realmBySubdomain = statement<RealmRow, [subdomain: string]>(
  'users_groups.realm_by_subdomain',
  `SELECT id, subdomain, name, description, deactivated, enable_spectator_access AS "enableSpectatorAccess",
     password_auth_enabled AS "passwordAuthEnabled", icon_source AS "iconSource", icon_version AS "iconVersion"
   FROM realms WHERE subdomain = $1`,
);

/**
 * Every column of `realms`, named as the Prisma model names its fields (realm-columns.spec holds
 * the list to the model): read through pg, a whole organization costs a sixteenth of Prisma's
 * CPU (0.4 ms against 6.2 ms a query on this machine), and POST /register reads it every time.
 */
export const REALM_COLUMNS = `id, subdomain, name, description, deactivated, enable_spectator_access AS "enableSpectatorAccess",
  password_auth_enabled AS "passwordAuthEnabled", email_changes_disabled AS "emailChangesDisabled",
  waiting_period_threshold AS "waitingPeriodThreshold",
  can_mention_many_users_group_id AS "canMentionManyUsersGroupId", can_create_groups_id AS "canCreateGroupsId",
  can_manage_all_groups_id AS "canManageAllGroupsId", allow_message_editing AS "allowMessageEditing",
  message_content_edit_limit_seconds AS "messageContentEditLimitSeconds",
  message_content_delete_limit_seconds AS "messageContentDeleteLimitSeconds",
  move_messages_within_stream_limit_seconds AS "moveMessagesWithinStreamLimitSeconds",
  move_messages_between_streams_limit_seconds AS "moveMessagesBetweenStreamsLimitSeconds",
  can_move_messages_between_topics_group_id AS "canMoveMessagesBetweenTopicsGroupId",
  can_move_messages_between_channels_group_id AS "canMoveMessagesBetweenChannelsGroupId",
  can_delete_own_message_group_id AS "canDeleteOwnMessageGroupId",
  can_delete_any_message_group_id AS "canDeleteAnyMessageGroupId",
  can_resolve_topics_group_id AS "canResolveTopicsGroupId", enable_read_receipts AS "enableReadReceipts",
  moderation_request_channel_id AS "moderationRequestChannelId", video_chat_provider AS "videoChatProvider",
  jitsi_server_url AS "jitsiServerUrl", invite_required AS "inviteRequired",
  emails_restricted_to_domains AS "emailsRestrictedToDomains",
  disallow_disposable_email_addresses AS "disallowDisposableEmailAddresses",
  default_language AS "defaultLanguage",
  message_edit_history_visibility_policy AS "messageEditHistoryVisibilityPolicy",
  message_retention_days AS "messageRetentionDays", topics_policy AS "topicsPolicy",
  name_changes_disabled AS "nameChangesDisabled", avatar_changes_disabled AS "avatarChangesDisabled",
  require_unique_names AS "requireUniqueNames", enable_guest_user_indicator AS "enableGuestUserIndicator",
  enable_guest_user_dm_warning AS "enableGuestUserDmWarning", send_welcome_emails AS "sendWelcomeEmails",
  welcome_message_custom_text AS "welcomeMessageCustomText", digest_emails_enabled AS "digestEmailsEnabled",
  digest_weekday AS "digestWeekday",
  message_content_allowed_in_email_notifications AS "messageContentAllowedInEmailNotifications",
  require_e2ee_push_notifications AS "requireE2eePushNotifications", org_type AS "orgType",
  default_code_block_language AS "defaultCodeBlockLanguage", giphy_rating AS "giphyRating",
  want_advertise_in_communities_directory AS "wantAdvertiseInCommunitiesDirectory",
  new_stream_announcements_stream_id AS "newStreamAnnouncementsStreamId",
  signup_announcements_stream_id AS "signupAnnouncementsStreamId",
  zulip_update_announcements_stream_id AS "zulipUpdateAnnouncementsStreamId", icon_source AS "iconSource",
  icon_version AS "iconVersion", logo_source AS "logoSource", logo_version AS "logoVersion",
  night_logo_source AS "nightLogoSource", night_logo_version AS "nightLogoVersion",
  can_access_all_users_group_id AS "canAccessAllUsersGroupId",
  can_add_custom_emoji_group_id AS "canAddCustomEmojiGroupId",
  can_add_subscribers_group_id AS "canAddSubscribersGroupId",
  can_create_bots_group_id AS "canCreateBotsGroupId",
  can_create_write_only_bots_group_id AS "canCreateWriteOnlyBotsGroupId",
  can_create_private_channel_group_id AS "canCreatePrivateChannelGroupId",
  can_create_public_channel_group_id AS "canCreatePublicChannelGroupId",
  can_create_web_public_channel_group_id AS "canCreateWebPublicChannelGroupId",
  can_invite_users_group_id AS "canInviteUsersGroupId",
  can_manage_billing_group_id AS "canManageBillingGroupId",
  can_set_delete_message_policy_group_id AS "canSetDeleteMessagePolicyGroupId",
  can_set_topics_policy_group_id AS "canSetTopicsPolicyGroupId",
  can_summarize_topics_group_id AS "canSummarizeTopicsGroupId",
  create_multiuse_invite_group_id AS "createMultiuseInviteGroupId",
  direct_message_initiator_group_id AS "directMessageInitiatorGroupId",
  direct_message_permission_group_id AS "directMessagePermissionGroupId",
  user_settings_defaults AS "userSettingsDefaults", date_created AS "dateCreated"`;

/** The organization with this id, every column. */
const realmById = statement<RealmModel, [id: number]>('users_groups.realm_by_id', `SELECT ${REALM_COLUMNS} FROM realms WHERE id = $1`);

/** What a new organization is created with (its system groups come from the database's trigger). */
export interface NewRealm {
  subdomain: string;
  name: string;
  enableSpectatorAccess: boolean;
  userSettingsDefaults: object;
}

/**
 * The `realms` table (organizations). The look-up by subdomain (every authentication) and the
 * whole organization by id (every POST /register) go through pg, one named statement each; the
 * rest are cold paths on Prisma. The organization's settings
 * defaults are SettingsRepository's.
 */
@Injectable()
export class OrganizationsRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  async bySubdomain(subdomain: string): Promise<RealmRow | null> {
    return (await this.pg.run(realmBySubdomain, subdomain))[0] ?? null;
  }

  byId(id: number, tx: Transaction = this.prisma): Promise<RealmModel | null> {
    return tx.realm.findUnique({ where: { id } });
  }

  /** An organization known to exist (the caller's own), every column, through pg (POST /register reads it). */
  async byIdOrThrow(id: number): Promise<RealmModel> {
    const [realm] = await this.pg.run(realmById, id);
    if (!realm) throw new Error(`no organization ${id}`);
    return realm;
  }

  /** Every organization, oldest first, with how many accounts it has (the admin command line's list). */
  allWithUserCounts(): Promise<(RealmModel & { _count: { users: number } })[]> {
    return this.prisma.realm.findMany({ orderBy: { id: 'asc' }, include: { _count: { select: { users: true } } } });
  }

  async subdomainTaken(subdomain: string): Promise<boolean> {
    return (await this.prisma.realm.findUnique({ where: { subdomain } })) !== null;
  }

  /** The organization's subdomain, or null when there is no such organization. */
  async subdomainOf(id: number): Promise<string | null> {
    return (await this.prisma.realm.findUnique({ where: { id }, select: { subdomain: true } }))?.subdomain ?? null;
  }

  /** Who may create groups and who may manage every group (the groups holding those permissions). */
  groupManagement(id: number): Promise<Pick<RealmModel, 'canCreateGroupsId' | 'canManageAllGroupsId'>> {
    return this.prisma.realm.findUniqueOrThrow({ where: { id }, select: { canCreateGroupsId: true, canManageAllGroupsId: true } });
  }

  create(realm: NewRealm, tx: Transaction): Promise<RealmModel> {
    return tx.realm.create({ data: realm });
  }
}

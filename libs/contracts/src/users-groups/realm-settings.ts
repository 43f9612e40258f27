import { z } from 'zod';
import { ZulipError, badRequest, param, type ParamSpec } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { emptyResponse, int } from '../api/api-schemas';
import { clientEventSchema, defineEvent } from '../event';
import { LANGUAGE_CODES } from './languages';
import { groupSettingChangeSchema } from './user-groups';

/**
 * The organization settings PATCH /realm changes (zerver/views/realm.py update_realm,
 * zerver/models/realms.py property_types and REALM_PERMISSION_GROUP_SETTINGS): one declaration
 * per setting, read by the endpoint's parameters, the use case (column, check, who), POST
 * /register (the stored value as the API shows it) and the events. users-groups owns the row.
 */

/** Who may change a setting: any administrator, or only owners (Zulip's OrganizationOwnerRequiredError). */
export type RealmSettingChanger = 'administrator' | 'owner';

/** A value setting: a `realms` column, shown in the API as `toApi` says. */
export interface RealmPropertyDef {
  kind: 'property';
  /** The Prisma field of `realms`. */
  column: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  param: ParamSpec<any, true>;
  who: RealmSettingChanger;
  /**
   * Zulip's event: `update` (`property`, `value`) or `update_dict` (`data: {name: value}`);
   * topics_policy's update_dict carries mandatory_topics too.
   */
  event: 'update' | 'update_dict';
  /** The decoded parameter as stored; throws Zulip's error for a value it refuses. */
  toStored: (value: unknown) => unknown;
  /** The stored value as the API (register, events) shows it. */
  toApi: (stored: unknown) => unknown;
}

/** A channel setting (Zulip's `*_stream_id`): -1 for none; the channel must be the organization's. */
export interface RealmChannelDef {
  kind: 'channel';
  column: string;
  who: RealmSettingChanger;
  /** The moderation channel must be private. */
  mustBePrivate: boolean;
}

/** A group-valued permission setting (Zulip's GroupPermissionSetting): `{new, old}` on the wire. */
export interface RealmGroupSettingDef {
  kind: 'group';
  /** The Prisma field of `realms` holding the group's id; null means `defaultGroup`. */
  column: string;
  who: RealmSettingChanger;
  defaultGroup: string;
  allowEveryone: boolean;
  allowNobody: boolean;
  /** Only a system group, and only these ones when listed. */
  requireSystemGroup: boolean;
  allowedSystemGroups: string[];
}

export type RealmSettingDef = RealmPropertyDef | RealmChannelDef | RealmGroupSettingDef;

const same = (value: unknown) => value;

/** Zulip's RequestVariableConversionError. */
const badValue = (name: string, value: unknown) =>
  new ZulipError('REQUEST_VARIABLE_INVALID', `Bad value for '${name}': ${String(value)}`, { var_name: name, bad_value: value });

function property(column: string, spec: ParamSpec<unknown, true>, options: Partial<Omit<RealmPropertyDef, 'kind' | 'column' | 'param'>> = {}): RealmPropertyDef {
  return { kind: 'property', column, param: spec, who: 'administrator', event: 'update', toStored: same, toApi: same, ...options };
}
const flag = (column: string, who: RealmSettingChanger = 'administrator') => property(column, param.bool(), { who });
/** Zulip's StringConstraints(max_length): the text as given. */
const text = (column: string, maxLength: number) => property(column, param.string(z.string().max(maxLength)));
/** Zulip's Json[SomeEnum] of integers. */
const intChoice = (name: string, column: string, values: readonly number[]) =>
  property(column, param.json(z.number().int().refine((value) => values.includes(value), { message: `Invalid ${name}` })) as ParamSpec<unknown, true>);

/**
 * Seconds, or "unlimited" (null): Zulip's parse_message_time_limit_setting. The edit limit and
 * allow_message_editing are announced as update_dict, for their history.
 */
const timeLimit = (name: string, column: string, event: 'update' | 'update_dict' = 'update') =>
  property(column, param.json(z.union([z.number().int(), z.string()])) as ParamSpec<unknown, true>, {
    event,
    toStored: (value) => {
      if (value === 'unlimited') return null;
      if (typeof value === 'string' || (value as number) <= 0 || (value as number) > MAX_INT32) throw badValue(name, value);
      return value;
    },
  });

/** A Zulip enum written by its member's name (parse_enum_from_string_value), stored as its value. */
function namedEnum(name: string, column: string, members: Record<string, number>, event: 'update' | 'update_dict' = 'update'): RealmPropertyDef {
  const names = Object.fromEntries(Object.entries(members).map(([key, value]) => [value, key]));
  return property(column, param.string(), {
    event,
    toStored: (value) => {
      if (!Object.prototype.hasOwnProperty.call(members, value as string)) throw badRequest(`Invalid ${name}`);
      return members[value as string];
    },
    toApi: (stored) => names[stored as number],
  });
}

const MAX_INT32 = 2147483647;

/** Zulip's VIDEO_CHAT_PROVIDERS the server can offer (no Zoom or BigBlueButton is configured). */
export const VIDEO_CHAT_PROVIDER_IDS = [0, 1];
/** Zulip's GIPHY_RATING_OPTIONS ids. */
const GIPHY_RATING_IDS = [0, 1, 2, 3, 4, 5];
/** Zulip's OrgTypeEnum. */
const ORG_TYPE_IDS = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000];
/** Zulip's MessageEditHistoryVisibilityPolicyEnum and RealmTopicsPolicyEnum. */
export const EDIT_HISTORY_POLICIES = { all: 1, moves: 2, none: 3 };
export const TOPICS_POLICIES = { allow_empty_topic: 2, disable_empty_topic: 3 };
/** Zulip's JITSI_SERVER_URL_MAX_LENGTH. */
const JITSI_SERVER_URL_MAX_LENGTH = 200;

function group(
  column: string,
  defaultGroup: string,
  options: Partial<Omit<RealmGroupSettingDef, 'kind' | 'column' | 'defaultGroup'>> & { allowEveryone: boolean },
): RealmGroupSettingDef {
  return { kind: 'group', column, defaultGroup, who: 'administrator', allowNobody: true, requireSystemGroup: false, allowedSystemGroups: [], ...options };
}

/** Every setting PATCH /realm changes, by its API name (POST /register shows each as `realm_<name>`). */
export const REALM_SETTINGS = {
  name: text('name', 40),
  description: text('description', 1000),
  default_language: property('defaultLanguage', param.string(), {
    toStored: (value) => {
      if (!(LANGUAGE_CODES as readonly string[]).includes(value as string)) throw badRequest(`Invalid language '${String(value)}'`);
      return value;
    },
  }),
  org_type: intChoice('org_type', 'orgType', ORG_TYPE_IDS),
  invite_required: flag('inviteRequired', 'owner'),
  emails_restricted_to_domains: flag('emailsRestrictedToDomains', 'owner'),
  disallow_disposable_email_addresses: flag('disallowDisposableEmailAddresses', 'owner'),
  waiting_period_threshold: property('waitingPeriodThreshold', param.json(z.number().int().min(0).max(MAX_INT32)) as ParamSpec<unknown, true>, { who: 'owner' }),
  enable_spectator_access: flag('enableSpectatorAccess'),
  want_advertise_in_communities_directory: flag('wantAdvertiseInCommunitiesDirectory'),
  email_changes_disabled: flag('emailChangesDisabled'),
  name_changes_disabled: flag('nameChangesDisabled'),
  avatar_changes_disabled: flag('avatarChangesDisabled'),
  require_unique_names: flag('requireUniqueNames'),
  enable_read_receipts: flag('enableReadReceipts'),
  enable_guest_user_indicator: flag('enableGuestUserIndicator'),
  enable_guest_user_dm_warning: flag('enableGuestUserDmWarning'),
  send_welcome_emails: flag('sendWelcomeEmails'),
  welcome_message_custom_text: text('welcomeMessageCustomText', 8000),
  digest_emails_enabled: flag('digestEmailsEnabled'),
  digest_weekday: intChoice('digest_weekday', 'digestWeekday', [0, 1, 2, 3, 4, 5, 6]),
  message_content_allowed_in_email_notifications: flag('messageContentAllowedInEmailNotifications'),
  require_e2ee_push_notifications: flag('requireE2eePushNotifications'),
  default_code_block_language: property('defaultCodeBlockLanguage', param.string()),
  giphy_rating: property('giphyRating', param.int(), {
    toStored: (value) => {
      if (!GIPHY_RATING_IDS.includes(value as number)) throw badRequest(`Invalid giphy_rating ${String(value)}`);
      return value;
    },
  }),
  video_chat_provider: property('videoChatProvider', param.int(), {
    toStored: (value) => {
      if (!VIDEO_CHAT_PROVIDER_IDS.includes(value as number)) throw badRequest(`Invalid video_chat_provider ${String(value)}`);
      return value;
    },
  }),
  jitsi_server_url: property('jitsiServerUrl', param.json(z.string()) as ParamSpec<unknown, true>, {
    toStored: (value) => {
      if (value === 'default') return null;
      if (!isCappedUrl(value as string, JITSI_SERVER_URL_MAX_LENGTH)) throw badRequest('jitsi_server_url is not an allowed_type');
      return value;
    },
  }),
  // Message editing, moving and deletion (messaging applies them).
  allow_message_editing: property('allowMessageEditing', param.bool(), { event: 'update_dict' }),
  message_content_edit_limit_seconds: timeLimit('message_content_edit_limit_seconds', 'messageContentEditLimitSeconds', 'update_dict'),
  message_content_delete_limit_seconds: timeLimit('message_content_delete_limit_seconds', 'messageContentDeleteLimitSeconds'),
  move_messages_within_stream_limit_seconds: timeLimit('move_messages_within_stream_limit_seconds', 'moveMessagesWithinStreamLimitSeconds'),
  move_messages_between_streams_limit_seconds: timeLimit('move_messages_between_streams_limit_seconds', 'moveMessagesBetweenStreamsLimitSeconds'),
  message_edit_history_visibility_policy: namedEnum('message_edit_history_visibility_policy', 'messageEditHistoryVisibilityPolicy', EDIT_HISTORY_POLICIES),
  topics_policy: namedEnum('topics_policy', 'topicsPolicy', TOPICS_POLICIES, 'update_dict'),
  /** Stored only: no retention job deletes old messages yet. */
  message_retention_days: property('messageRetentionDays', param.json(z.union([z.number().int(), z.string()])) as ParamSpec<unknown, true>, {
    who: 'owner',
    toStored: (value) => {
      if (value === 'unlimited') return -1;
      if (typeof value === 'string' || (value as number) <= 0 || (value as number) > MAX_INT32) throw badValue('message_retention_days', value);
      return value;
    },
  }),
  // Channels.
  moderation_request_channel_id: { kind: 'channel', column: 'moderationRequestChannelId', who: 'administrator', mustBePrivate: true },
  new_stream_announcements_stream_id: { kind: 'channel', column: 'newStreamAnnouncementsStreamId', who: 'administrator', mustBePrivate: false },
  signup_announcements_stream_id: { kind: 'channel', column: 'signupAnnouncementsStreamId', who: 'administrator', mustBePrivate: false },
  zulip_update_announcements_stream_id: { kind: 'channel', column: 'zulipUpdateAnnouncementsStreamId', who: 'administrator', mustBePrivate: false },
  // Group-based permissions (Zulip's REALM_PERMISSION_GROUP_SETTINGS). Defaults follow Zulip's,
  // but for what this server does differently: nobody invites (there are no invitations), and
  // administrators create web-public channels (messaging's creation rule).
  can_access_all_users_group: group('canAccessAllUsersGroupId', 'role:everyone', {
    allowEveryone: true,
    allowNobody: false,
    requireSystemGroup: true,
    allowedSystemGroups: ['role:everyone', 'role:members'],
  }),
  can_add_custom_emoji_group: group('canAddCustomEmojiGroupId', 'role:members', { allowEveryone: false }),
  can_add_subscribers_group: group('canAddSubscribersGroupId', 'role:members', { allowEveryone: false }),
  can_create_bots_group: group('canCreateBotsGroupId', 'role:members', { allowEveryone: false }),
  can_create_groups: group('canCreateGroupsId', 'role:members', { allowEveryone: false, who: 'owner' }),
  can_create_private_channel_group: group('canCreatePrivateChannelGroupId', 'role:members', { allowEveryone: false }),
  can_create_public_channel_group: group('canCreatePublicChannelGroupId', 'role:members', { allowEveryone: false }),
  can_create_web_public_channel_group: group('canCreateWebPublicChannelGroupId', 'role:administrators', {
    allowEveryone: false,
    requireSystemGroup: true,
    allowedSystemGroups: ['role:moderators', 'role:administrators', 'role:owners', 'role:nobody'],
  }),
  can_create_write_only_bots_group: group('canCreateWriteOnlyBotsGroupId', 'role:members', { allowEveryone: false }),
  can_delete_any_message_group: group('canDeleteAnyMessageGroupId', 'role:administrators', { allowEveryone: false }),
  can_delete_own_message_group: group('canDeleteOwnMessageGroupId', 'role:everyone', { allowEveryone: true }),
  can_invite_users_group: group('canInviteUsersGroupId', 'role:members', { allowEveryone: false, who: 'owner' }),
  can_manage_all_groups: group('canManageAllGroupsId', 'role:owners', { allowEveryone: false, allowNobody: false, who: 'owner' }),
  can_manage_billing_group: group('canManageBillingGroupId', 'role:administrators', { allowEveryone: false, allowNobody: false, who: 'owner' }),
  can_mention_many_users_group: group('canMentionManyUsersGroupId', 'role:administrators', { allowEveryone: true }),
  can_move_messages_between_channels_group: group('canMoveMessagesBetweenChannelsGroupId', 'role:members', { allowEveryone: false }),
  can_move_messages_between_topics_group: group('canMoveMessagesBetweenTopicsGroupId', 'role:everyone', { allowEveryone: true }),
  can_resolve_topics_group: group('canResolveTopicsGroupId', 'role:everyone', { allowEveryone: true }),
  can_set_delete_message_policy_group: group('canSetDeleteMessagePolicyGroupId', 'role:moderators', { allowEveryone: false }),
  can_set_topics_policy_group: group('canSetTopicsPolicyGroupId', 'role:moderators', { allowEveryone: true }),
  can_summarize_topics_group: group('canSummarizeTopicsGroupId', 'role:everyone', { allowEveryone: true }),
  create_multiuse_invite_group: group('createMultiuseInviteGroupId', 'role:administrators', { allowEveryone: false, who: 'owner' }),
  direct_message_initiator_group: group('directMessageInitiatorGroupId', 'role:everyone', { allowEveryone: true }),
  direct_message_permission_group: group('directMessagePermissionGroupId', 'role:everyone', { allowEveryone: true }),
} satisfies Record<string, RealmSettingDef>;

export type RealmSettingName = keyof typeof REALM_SETTINGS;
export const REALM_SETTING_NAMES = Object.keys(REALM_SETTINGS) as RealmSettingName[];

type Catalogue = typeof REALM_SETTINGS;
type NamesOfKind<K extends RealmSettingDef['kind']> = { [N in keyof Catalogue]: Catalogue[N]['kind'] extends K ? N : never }[keyof Catalogue];
export type RealmGroupSettingName = NamesOfKind<'group'>;
export type RealmPropertyName = NamesOfKind<'property'>;
export type RealmChannelSettingName = NamesOfKind<'channel'>;

const namesOf = <K extends RealmSettingDef['kind']>(kind: K) =>
  REALM_SETTING_NAMES.filter((name) => (REALM_SETTINGS[name] as RealmSettingDef).kind === kind) as NamesOfKind<K>[];
export const REALM_GROUP_SETTING_NAMES = namesOf('group');
export const REALM_PROPERTY_NAMES = namesOf('property');
export const REALM_CHANNEL_SETTING_NAMES = namesOf('channel');

/** Zulip's check_capped_url: an http(s) URL of at most `max` characters. */
function isCappedUrl(value: string, max: number): boolean {
  if (value.length > max) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

function settingParam(def: RealmSettingDef) {
  if (def.kind === 'property') return def.param.optional();
  if (def.kind === 'channel') return param.int().optional();
  return param.json(groupSettingChangeSchema).optional();
}

export const updateRealmParams = Object.fromEntries(REALM_SETTING_NAMES.map((name) => [name, settingParam(REALM_SETTINGS[name])])) as {
  [N in RealmSettingName]: ParamSpec<
    Catalogue[N] extends RealmGroupSettingDef ? z.output<typeof groupSettingChangeSchema> : Catalogue[N] extends RealmChannelDef ? number : unknown,
    false
  >;
};

export const updateRealm = defineApiCommand('users-groups', 'update_realm', {
  route: 'PATCH /realm',
  summary: "Changes the organization's settings (administrators; some only owners). Answers each changed setting's new value.",
  params: updateRealmParams,
  // Zulip answers the changed settings: a text one as "updated", the others by their new value.
  response: z.object({}).catchall(z.unknown()),
});

/** An allowed email domain as POST /register and the events show it (Zulip's RealmDomain.as_dict). */
export const realmDomainSchema = z.object({ domain: z.string(), allow_subdomains: z.boolean() });
export type RealmDomainRecord = z.infer<typeof realmDomainSchema>;

export const listRealmDomains = defineApiCommand('users-groups', 'list_realm_domains', {
  route: 'GET /realm/domains',
  summary: "The organization's allowed email domains.",
  params: {},
  response: z.object({ domains: z.array(realmDomainSchema) }),
});

export const createRealmDomainParams = {
  domain: param.string(),
  allow_subdomains: param.bool(),
};

export const createRealmDomain = defineApiCommand('users-groups', 'create_realm_domain', {
  route: 'POST /realm/domains',
  summary: 'Adds an allowed email domain (owners only).',
  params: createRealmDomainParams,
  /** `[id, domain]`. */
  response: z.object({ new_domain: z.tuple([int(), z.string()]) }),
});

export const updateRealmDomain = defineApiCommand('users-groups', 'update_realm_domain', {
  route: 'PATCH /realm/domains/{domain}',
  summary: 'Changes whether an allowed email domain takes its subdomains (owners only).',
  params: { domain: param.string(), allow_subdomains: param.bool() },
  response: emptyResponse,
});

export const deleteRealmDomain = defineApiCommand('users-groups', 'delete_realm_domain', {
  route: 'DELETE /realm/domains/{domain}',
  summary: 'Removes an allowed email domain (owners only); removing the last one lifts the restriction.',
  params: { domain: param.string() },
  response: emptyResponse,
});

/** Zulip's MAX_REALM_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH. */
export const MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH = 8000;

export const testWelcomeBotCustomMessage = defineApiCommand('users-groups', 'test_welcome_bot_custom_message', {
  route: 'POST /realm/test_welcome_bot_custom_message',
  summary: "Sends Welcome Bot's custom message, with this text, to the calling administrator.",
  params: { welcome_message_custom_text: param.string(z.string().max(MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH)) },
  response: z.object({ message_id: int() }),
});

export const RealmSettingsEvents = {
  /** `realm` update / update_dict events, one per changed setting, to every active user. */
  realmChanged: defineEvent('users-groups', 'realm_changed', clientEventSchema),
  /** `realm_domains` add / change / remove events, to every active user. */
  realmDomainsChanged: defineEvent('users-groups', 'realm_domains_changed', clientEventSchema),
};

/** The Welcome Bot's address, in the organization's host's domain, and its name (Zulip's WELCOME_BOT). */
export const WELCOME_BOT_LOCAL_PART = 'welcome-bot';
export const WELCOME_BOT_NAME = 'Welcome Bot';

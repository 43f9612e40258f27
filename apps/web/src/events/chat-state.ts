import type { QueryClient } from '@tanstack/react-query';
import type { ChannelFolder, Draft, GroupSettingValue, Linkifier, NavigationView, Message, Playground, Presence, ProfileField, RealmBot, RealmEmoji, RegisterAnswer, Reminder, SavedSnippet, ScheduledMessage, Subscription, User, UserGroup, UserStatus } from '../api/types';
import { otherPeople } from '../narrow/narrow';

/**
 * What the app knows from POST /register, kept in the query cache under CHAT_STATE and changed
 * only by the event dispatcher: who I am, my channels, the people, and which messages are unread
 * (message id → its conversation).
 */
export interface ChatState {
  me: { user_id: number; email: string; full_name: string; isAdmin: boolean; isOwner: boolean; isGuest: boolean };
  /** Who may move messages to another topic, and to another channel (realm group settings). */
  moveTopicsGroup?: GroupSettingValue;
  moveChannelsGroup?: GroupSettingValue;
  /** The organization lets people edit their messages (realm_allow_message_editing). */
  allowEditing: boolean;
  realmName: string;
  subscriptions: Subscription[];
  users: Record<number, User>;
  /** The organization's channel folders, in their order. */
  folders: ChannelFolder[];
  /** My navigation views: built-in ones I pinned or hid, and those I added. */
  navigationViews: NavigationView[];
  /** The organization's user groups, deactivated ones left out. */
  groups: UserGroup[];
  unread: Record<number, string>;
  /** Each user's last activity (by user id), and how the server times it. */
  presences: Record<number, Presence>;
  presencePingSeconds: number;
  presenceOfflineSeconds: number;
  /** Each user's status (by user id), for those who set one. */
  statuses: Record<number, UserStatus>;
  /** A topic's conversation key → the topic as written (keys compare without case). */
  topicNames: Record<string, string>;
  typingStartedWaitMs: number;
  drafts: Draft[];
  /** A topic's key → my visibility policy for it (1 muted, 2 unmuted, 3 followed). */
  topicPolicies: Record<string, number>;
  scheduled: ScheduledMessage[];
  /** My personal settings as the server has them (user_settings), by Zulip's names. */
  settings: Record<string, unknown>;
  /** The organization's defaults for new users (realm_user_settings_defaults). */
  realmDefaults: Record<string, unknown>;
  /** My real email address (delivery_email). */
  deliveryEmail: string;
  /** Zulip's color_scheme: 1 automatic, 2 dark, 3 light. */
  colorScheme: number;
  /** The people I muted (user id → when). */
  mutedUsers: Record<number, number>;
  alertWords: string[];
  savedSnippets: SavedSnippet[];
  /** The organization's custom emoji by id, deactivated ones included. */
  realmEmoji: Record<string, RealmEmoji>;
  /** Who may add custom emoji (realm_can_add_custom_emoji_group). */
  addEmojiGroup?: GroupSettingValue;
  linkifiers: Linkifier[];
  playgrounds: Playground[];
  /** The organization's custom profile fields, in their order. */
  profileFields: ProfileField[];
  /** The organization shares read receipts (realm_enable_read_receipts). */
  readReceipts: boolean;
  /** My avatar's URL. */
  avatarUrl: string;
  /** The bots I administer (realm_bots): mine, or every bot for an administrator; deactivated ones included. */
  bots: RealmBot[];
  /** My reminders not yet delivered, failed ones included. */
  reminders: Reminder[];
  /** Who may send invitations, create reusable invitation links, create bots, and create incoming webhook bots only (realm group settings). */
  inviteUsersGroup?: GroupSettingValue;
  createMultiuseInviteGroup?: GroupSettingValue;
  createBotsGroup?: GroupSettingValue;
  createWriteOnlyBotsGroup?: GroupSettingValue;
  /** Zulip's longest reminder note (max_reminder_note_length). */
  maxReminderNoteLength: number;
  /** The organization's settings as register gives them (`realm_<name>`, by `<name>`), kept current by the `realm` events. */
  realm: Record<string, unknown>;
  /** The organization's allowed email domains (realm_domains). */
  realmDomains: RealmDomain[];
}

/** An allowed email domain (Zulip's RealmDomain). */
export interface RealmDomain {
  domain: string;
  allow_subdomains: boolean;
}

export const CHAT_STATE = ['chat'] as const;

/** Zulip's visibility policies of a topic. */
export const MUTED = 1;
export const FOLLOWED = 3;

/** A channel's conversations' keys start with this; a topic's key adds the topic (compared without case). */
export const channelKey = (channelId: number) => `c:${channelId}/`;
export const topicKey = (channelId: number, topic: string) => `${channelKey(channelId)}${topic.toLowerCase()}`;
export const dmKey = (others: number[]) => `d:${[...others].sort((a, b) => a - b).join(',')}`;

export function conversationKey(message: Message, myId: number): string {
  return message.type === 'stream' ? topicKey(message.stream_id ?? 0, message.subject) : dmKey(otherPeople(message, myId));
}

export function stateFromRegister(answer: RegisterAnswer): ChatState {
  const unread: Record<number, string> = {};
  const topicNames: Record<string, string> = {};
  for (const channel of answer.unread_msgs?.streams ?? []) {
    topicNames[topicKey(channel.stream_id, channel.topic)] = channel.topic;
    for (const id of channel.unread_message_ids) unread[id] = topicKey(channel.stream_id, channel.topic);
  }
  for (const dm of answer.unread_msgs?.pms ?? []) for (const id of dm.unread_message_ids) unread[id] = dmKey([dm.other_user_id]);
  for (const group of answer.unread_msgs?.huddles ?? []) {
    const others = group.user_ids_string.split(',').map(Number).filter((id) => id !== answer.user_id);
    for (const id of group.unread_message_ids) unread[id] = dmKey(others);
  }
  return {
    // The register answer's keys are all optional in the document (each comes with its fetch type); the app asks for these.
    me: {
      user_id: answer.user_id ?? 0,
      email: answer.email ?? '',
      full_name: answer.full_name ?? '',
      isAdmin: answer.is_admin === true,
      isOwner: answer.is_owner === true,
      isGuest: answer.is_guest === true,
    },
    allowEditing: answer.realm_allow_message_editing !== false,
    moveTopicsGroup: answer.realm_can_move_messages_between_topics_group,
    moveChannelsGroup: answer.realm_can_move_messages_between_channels_group,
    realmName: answer.realm_name ?? '',
    subscriptions: [...(answer.subscriptions ?? [])].sort((a, b) => a.name.localeCompare(b.name)),
    users: Object.fromEntries((answer.realm_users ?? []).map((user) => [user.user_id, user])),
    folders: sortFolders(answer.channel_folders ?? []),
    navigationViews: answer.navigation_views ?? [],
    groups: (answer.realm_user_groups ?? []).filter((group) => !group.deactivated),
    unread,
    // slim_presence: the modern format, by user id.
    presences: Object.fromEntries(Object.entries(answer.presences ?? {}).flatMap(([id, presence]) => ('active_timestamp' in presence ? [[Number(id), presence as Presence]] : []))),
    presencePingSeconds: answer.server_presence_ping_interval_seconds ?? 60,
    presenceOfflineSeconds: answer.server_presence_offline_threshold_seconds ?? 140,
    statuses: Object.fromEntries(Object.entries(answer.user_status ?? {}).map(([id, status]) => [Number(id), status])),
    topicNames,
    typingStartedWaitMs: answer.server_typing_started_wait_period_milliseconds ?? 10_000,
    drafts: answer.drafts ?? [],
    topicPolicies: Object.fromEntries((answer.user_topics ?? []).filter((t) => t.visibility_policy !== 0).map((t) => [topicKey(t.stream_id, t.topic_name), t.visibility_policy])),
    scheduled: answer.scheduled_messages ?? [],
    colorScheme: answer.user_settings?.color_scheme ?? 1,
    settings: answer.user_settings ?? {},
    realmDefaults: answer.realm_user_settings_defaults ?? {},
    deliveryEmail: answer.delivery_email ?? answer.email ?? '',
    mutedUsers: Object.fromEntries((answer.muted_users ?? []).map((muted) => [muted.id, muted.timestamp])),
    alertWords: answer.alert_words ?? [],
    savedSnippets: answer.saved_snippets ?? [],
    realmEmoji: answer.realm_emoji ?? {},
    addEmojiGroup: answer.realm_can_add_custom_emoji_group,
    linkifiers: answer.realm_linkifiers ?? [],
    playgrounds: answer.realm_playgrounds ?? [],
    profileFields: sortFields(answer.custom_profile_fields ?? []),
    readReceipts: answer.realm_enable_read_receipts === true,
    avatarUrl: answer.avatar_url ?? '',
    bots: answer.realm_bots ?? [],
    reminders: answer.reminders ?? [],
    inviteUsersGroup: answer.realm_can_invite_users_group,
    createMultiuseInviteGroup: answer.realm_create_multiuse_invite_group,
    createBotsGroup: answer.realm_can_create_bots_group,
    createWriteOnlyBotsGroup: answer.realm_can_create_write_only_bots_group,
    maxReminderNoteLength: answer.max_reminder_note_length ?? 1000,
    realm: Object.fromEntries(Object.entries(answer).flatMap(([key, value]) => (key.startsWith('realm_') ? [[key.slice('realm_'.length), value]] : []))),
    realmDomains: (answer as { realm_domains?: RealmDomain[] }).realm_domains ?? [],
  };
}

/** How many unread messages each conversation key has, and each channel (under channelKey). */
export function unreadCounts(state: ChatState): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const key of Object.values(state.unread)) {
    add(key);
    // A muted topic's messages do not count for its channel (as in Zulip).
    if (key.startsWith('c:') && state.topicPolicies[key] !== MUTED) add(key.slice(0, key.indexOf('/') + 1));
  }
  return counts;
}

export const chatState = (client: QueryClient) => client.getQueryData<ChatState>(CHAT_STATE);

export function updateChatState(client: QueryClient, change: (state: ChatState) => ChatState): void {
  const state = chatState(client);
  if (state) client.setQueryData(CHAT_STATE, change(state));
}

/** Whether the user is in the group, directly or through its subgroups. */
export function inGroup(state: ChatState, groupId: number, userId: number, seen = new Set<number>()): boolean {
  if (seen.has(groupId)) return false;
  seen.add(groupId);
  const group = state.groups.find((g) => g.id === groupId);
  if (!group) return false;
  return group.members.includes(userId) || (group.direct_subgroup_ids ?? []).some((sub) => inGroup(state, sub, userId, seen));
}

/** Whether a group setting (Zulip's GroupSettingValue) includes the user. */
export function inGroupSetting(state: ChatState, value: GroupSettingValue | undefined, userId: number): boolean {
  if (value === undefined) return false;
  if (typeof value === 'number') return inGroup(state, value, userId);
  return value.direct_members.includes(userId) || value.direct_subgroups.some((sub) => inGroup(state, sub, userId));
}

/** Whether I may move messages to another topic (`topics`) or another channel, as the organization's settings say (administrators always may). */
export function mayMove(state: ChatState, to: 'topic' | 'channel'): boolean {
  if (state.me.isAdmin) return true;
  return inGroupSetting(state, to === 'topic' ? state.moveTopicsGroup : state.moveChannelsGroup, state.me.user_id);
}

export const sortFolders = (folders: ChannelFolder[]) => [...folders].sort((a, b) => a.order - b.order || a.id - b.id);

export const sortFields = (fields: ProfileField[]) => [...fields].sort((a, b) => a.order - b.order || a.id - b.id);

/** Whether I may add custom emoji (administrators always may). */
export const mayAddEmoji = (state: ChatState) => state.me.isAdmin || inGroupSetting(state, state.addEmojiGroup, state.me.user_id);

/**
 * Whether I may send email invitations, and create reusable links (Zulip's
 * can_invite_users_group and create_multiuse_invite_group; guests never: the server refuses them).
 */
export const mayInvite = (state: ChatState) => !state.me.isGuest && inGroupSetting(state, state.inviteUsersGroup, state.me.user_id);
export const mayCreateInviteLinks = (state: ChatState) => !state.me.isGuest && inGroupSetting(state, state.createMultiuseInviteGroup, state.me.user_id);

/** Zulip's bot types: 1 generic, 2 incoming webhook, 3 outgoing webhook. */
export const BOT_TYPES = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3 } as const;

/** The bot types I may create (Zulip's allowed_bot_types: every type, incoming webhooks only, or none). */
export function allowedBotTypes(state: ChatState): number[] {
  if (inGroupSetting(state, state.createBotsGroup, state.me.user_id)) return [BOT_TYPES.GENERIC, BOT_TYPES.INCOMING_WEBHOOK, BOT_TYPES.OUTGOING_WEBHOOK];
  if (inGroupSetting(state, state.createWriteOnlyBotsGroup, state.me.user_id)) return [BOT_TYPES.INCOMING_WEBHOOK];
  return [];
}

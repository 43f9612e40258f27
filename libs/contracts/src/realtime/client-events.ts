import { z } from 'zod';
import { apiSchema, int } from '../api/api-schemas';
import { channelFolderSchema } from '../messaging/channel-folders';
import { channelSchema, subscriptionSchema } from '../messaging/channels';
import { draftSchema } from '../messaging/drafts';
import { messageSchema } from '../messaging/messages';
import { REACTION_TYPES } from '../presence/status';
import { legacyPresenceEntrySchema, modernPresenceSchema } from '../presence/presence';
import { scheduledMessageSchema } from '../scheduler/scheduled-messages';
import { PUSH_DEVICE_STATUSES } from '../push/devices';
import { GROUP_PERMISSION_SETTING_NAMES, groupSettingValueSchema, perSettingOf, userGroupSchema } from '../users-groups/user-groups';
import { navigationViewSchema } from '../users-groups/navigation-views';
import { userSchema } from '../users-groups/users';
import { settingNamesOfType, userTopicSchema } from './register-response';

/**
 * The events a queue delivers, as GET /events shows them: each has the queue's `id` (which only
 * increases) and its `type`, plus `op` where Zulip's event has one. One schema per type and op.
 */
const base = <T extends string>(type: T) => ({ id: int(), type: z.literal(type) });
const withOp = <T extends string, O extends string>(type: T, op: O) => ({ ...base(type), op: z.literal(op) });

/** `heartbeat`: what a long-poll with nothing to deliver answers. */
export const heartbeatEvent = apiSchema('HeartbeatEvent', z.object(base('heartbeat')));

/**
 * `message`: a new message, shaped for the queue (apply_markdown, client_gravatar, the empty
 * topic's display name), with the recipient's flags.
 */
export const messageEvent = apiSchema(
  'MessageEvent',
  z.object({
    ...base('message'),
    message: messageSchema,
    /** The recipient's flags (none for an all_public_streams queue's owner who is not a recipient). */
    flags: z.array(z.string()),
    /** Only to the sender's queue named by `queue_id` when sending: the `local_id` it sent. Zulip's name. */
    local_message_id: z.string().optional(),
    /** The same value, under the interface's name. */
    local_id: z.string().optional(),
  }),
);

/** A person as typing notifications name them. */
const typingPerson = z.object({ user_id: int(), email: z.string() });

/** `typing` start or stop, in a direct conversation (to its participants) or a channel topic. */
const typingEvent = <O extends 'start' | 'stop'>(op: O) =>
  z.union([
    z.object({
      ...withOp('typing', op),
      message_type: z.literal('direct'),
      sender: typingPerson,
      /** Every participant, the sender included. */
      recipients: z.array(typingPerson),
    }),
    z.object({
      ...withOp('typing', op),
      message_type: z.literal('stream'),
      sender: typingPerson,
      stream_id: int(),
      topic: z.string(),
    }),
  ]);
export const typingStartEvent = apiSchema('TypingStartEvent', typingEvent('start'));
export const typingStopEvent = apiSchema('TypingStopEvent', typingEvent('stop'));

/**
 * `presence`: a user is new to presence or came back online. Queues with the
 * `simplified_presence_events` capability get `presences` (modern format, by user id); others
 * the legacy `user_id`, `email`, `server_timestamp` and `presence`.
 */
export const presenceEvent = apiSchema(
  'PresenceEvent',
  z.object({
    ...base('presence'),
    presences: z.record(z.string().regex(/^[0-9]+$/), modernPresenceSchema).optional(),
    user_id: int().optional(),
    email: z.string().optional(),
    server_timestamp: z.number().optional(),
    presence: z.record(z.string(), legacyPresenceEntrySchema).optional(),
  }),
);

/** `user_status`: a user's status changed; only the keys that were passed are present. */
export const userStatusEvent = apiSchema(
  'UserStatusEvent',
  z.object({
    ...base('user_status'),
    user_id: int(),
    /** Deprecated: presence_enabled's opposite. */
    away: z.boolean().optional(),
    status_text: z.string().optional(),
    /** "" when the emoji was cleared. */
    emoji_name: z.string().optional(),
    emoji_code: z.string().optional(),
    reaction_type: z.enum(REACTION_TYPES).optional(),
  }),
);

/** `push_device`: one of the caller's push devices changed registration status (to its owner). */
export const pushDeviceEvent = apiSchema(
  'PushDeviceEvent',
  z.object({
    ...base('push_device'),
    /** The push account ID, as a string. */
    push_account_id: z.string(),
    status: z.enum(PUSH_DEVICE_STATUSES),
    /** With `failed`: the relay's error code (INVALID_BOUNCER_PUBLIC_KEY, REQUEST_EXPIRED, …). */
    error_code: z.string().nullable().optional(),
  }),
);

/** `drafts` add: drafts created (POST /drafts). */
export const draftsAddEvent = apiSchema('DraftsAddEvent', z.object({ ...withOp('drafts', 'add'), drafts: z.array(draftSchema) }));
/** `drafts` update: a draft replaced (PATCH /drafts/{draft_id}). */
export const draftsUpdateEvent = apiSchema('DraftsUpdateEvent', z.object({ ...withOp('drafts', 'update'), draft: draftSchema }));
/** `drafts` remove: a draft deleted. */
export const draftsRemoveEvent = apiSchema('DraftsRemoveEvent', z.object({ ...withOp('drafts', 'remove'), draft_id: int() }));

/** `subscription` add: the caller's new subscriptions, with their subscribers. */
export const subscriptionAddEvent = apiSchema(
  'SubscriptionAddEvent',
  z.object({ ...withOp('subscription', 'add'), subscriptions: z.array(subscriptionSchema) }),
);

/** `subscription` remove: the channels the caller left. */
export const subscriptionRemoveEvent = apiSchema(
  'SubscriptionRemoveEvent',
  z.object({
    ...withOp('subscription', 'remove'),
    subscriptions: z.array(z.object({ stream_id: int(), name: z.string() })),
  }),
);

/** The subscription properties whose values are booleans. */
const BOOLEAN_SUBSCRIPTION_PROPERTIES = [
  'is_muted',
  /** Deprecated: the opposite of `is_muted`, sent just before it. */
  'in_home_view',
  'pin_to_top',
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;

/** `subscription` update: one property of the caller's subscription changed. */
export const subscriptionUpdateEvent = apiSchema(
  'SubscriptionUpdateEvent',
  z.union([
    z.object({ ...withOp('subscription', 'update'), stream_id: int(), property: z.literal('color'), value: z.string() }),
    z.object({ ...withOp('subscription', 'update'), stream_id: int(), property: z.enum(BOOLEAN_SUBSCRIPTION_PROPERTIES), value: z.boolean() }),
  ]),
);

/** `subscription` peer_add / peer_remove: other users joined or left channels the recipient can see. */
const peerEvent = <O extends 'peer_add' | 'peer_remove'>(op: O) =>
  z.object({ ...withOp('subscription', op), stream_ids: z.array(int()), user_ids: z.array(int()) });
export const subscriptionPeerAddEvent = apiSchema('SubscriptionPeerAddEvent', peerEvent('peer_add'));
export const subscriptionPeerRemoveEvent = apiSchema('SubscriptionPeerRemoveEvent', peerEvent('peer_remove'));

/** `stream` create: channels the recipient can now see (new ones, or ones they were just added to). */
export const streamCreateEvent = apiSchema('StreamCreateEvent', z.object({ ...withOp('stream', 'create'), streams: z.array(channelSchema) }));

/** `stream` delete: channels the recipient can no longer see. */
export const streamDeleteEvent = apiSchema(
  'StreamDeleteEvent',
  z.object({
    ...withOp('stream', 'delete'),
    /** Deprecated: `stream_ids` as objects. */
    streams: z.array(z.object({ stream_id: int() })),
    stream_ids: z.array(int()),
  }),
);

/** `stream` update: one property of a channel changed (PATCH /streams/{stream_id}, or `first_message_id` when the oldest message goes). */
export const streamUpdateEvent = apiSchema(
  'StreamUpdateEvent',
  z.object({
    ...withOp('stream', 'update'),
    stream_id: int(),
    /** The channel's name (before a rename). */
    name: z.string(),
    property: z.string(),
    value: z.union([z.string(), z.boolean(), int(), groupSettingValueSchema]).nullable(),
    /** With `description`. */
    rendered_description: z.string().optional(),
    /** With `invite_only`. */
    history_public_to_subscribers: z.boolean().optional(),
    is_web_public: z.boolean().optional(),
  }),
);

/**
 * `delete_message`: messages of one channel topic deleted. Queues registered with the
 * `bulk_message_deletion` capability get every id in one event (`message_ids`); the others one
 * event per message (`message_id`).
 */
export const deleteMessageEvent = apiSchema(
  'DeleteMessageEvent',
  z.union([
    z.object({
      ...base('delete_message'),
      message_ids: z.array(int()),
      message_type: z.literal('stream'),
      stream_id: int(),
      topic: z.string(),
    }),
    z.object({
      ...base('delete_message'),
      message_id: int(),
      message_type: z.literal('stream'),
      stream_id: int(),
      topic: z.string(),
    }),
    z.object({ ...base('delete_message'), message_ids: z.array(int()), message_type: z.literal('private') }),
    z.object({ ...base('delete_message'), message_id: int(), message_type: z.literal('private') }),
  ]),
);

/**
 * `update_message`: a message edited (content keys) or messages moved (topic and channel keys),
 * with the recipient's flags on the edited message.
 */
export const updateMessageEvent = apiSchema(
  'UpdateMessageEvent',
  z.object({
    ...base('update_message'),
    /** Who edited; null for a rendering-only update. */
    user_id: int().nullable(),
    rendering_only: z.boolean(),
    message_id: int(),
    message_ids: z.array(int()),
    flags: z.array(z.string()),
    edit_timestamp: int(),
    stream_name: z.string().optional(),
    stream_id: int().optional(),
    new_stream_id: int().optional(),
    propagate_mode: z.enum(['change_one', 'change_later', 'change_all']).optional(),
    orig_subject: z.string().optional(),
    subject: z.string().optional(),
    topic_links: z.array(z.object({ text: z.string(), url: z.string() })).optional(),
    orig_content: z.string().optional(),
    orig_rendered_content: z.string().optional(),
    content: z.string().optional(),
    rendered_content: z.string().optional(),
    is_me_message: z.boolean().optional(),
  }),
);

/** `reaction` add/remove: a user's emoji reaction to a message. */
const reactionEvent = <O extends 'add' | 'remove'>(op: O) =>
  z.object({
    ...withOp('reaction', op),
    message_id: int(),
    emoji_name: z.string(),
    emoji_code: z.string(),
    reaction_type: z.enum(REACTION_TYPES),
    user_id: int(),
    /** Deprecated: the reacting user. */
    user: z.object({ user_id: int(), email: z.string(), full_name: z.string() }),
  });
export const reactionAddEvent = apiSchema('ReactionAddEvent', reactionEvent('add'));
export const reactionRemoveEvent = apiSchema('ReactionRemoveEvent', reactionEvent('remove'));

/** `update_message_flags` remove: a flag cleared on the recipient's messages; a `read` removal details each message. */
export const updateMessageFlagsRemoveEvent = apiSchema(
  'UpdateMessageFlagsRemoveEvent',
  z.object({
    ...withOp('update_message_flags', 'remove'),
    /** Deprecated: the same as `op`. */
    operation: z.literal('remove'),
    flag: z.string(),
    messages: z.array(int()),
    all: z.boolean(),
    message_details: z
      .record(
        z.string(),
        z.object({
          type: z.enum(['private', 'stream']),
          mentioned: z.boolean().optional(),
          user_ids: z.array(int()).optional(),
          stream_id: int().optional(),
          topic: z.string().optional(),
          unmuted_stream_msg: z.boolean().optional(),
        }),
      )
      .optional(),
  }),
);

/** `update_message_flags` add: a flag set on the recipient's messages (POST /messages/flags, or read by topic). */
export const updateMessageFlagsAddEvent = apiSchema(
  'UpdateMessageFlagsAddEvent',
  z.object({
    ...withOp('update_message_flags', 'add'),
    /** Deprecated: the same as `op`. */
    operation: z.literal('add'),
    flag: z.string(),
    messages: z.array(int()),
    /** Always false: the flag was set on the listed messages only. */
    all: z.boolean(),
  }),
);

/** `user_settings` update: one of the recipient's personal settings changed, with its new value. */
export const userSettingsUpdateEvent = apiSchema(
  'UserSettingsUpdateEvent',
  z.union([
    z.object({ ...withOp('user_settings', 'update'), property: z.enum(settingNamesOfType('boolean')), value: z.boolean() }),
    z.object({ ...withOp('user_settings', 'update'), property: z.enum(settingNamesOfType('number')), value: int() }),
    z.object({
      ...withOp('user_settings', 'update'),
      property: z.enum([...settingNamesOfType('string'), 'timezone']),
      value: z.string(),
      /** Only for `default_language`: the language's own name. */
      language_name: z.string().optional(),
    }),
  ]),
);

/** `realm_user` add: a new account, as GET /users shows it to the recipient. */
export const realmUserAddEvent = apiSchema('RealmUserAddEvent', z.object({ ...withOp('realm_user', 'add'), person: userSchema }));

/**
 * `realm_user` update: one thing about a user changed, named by the one key beside `user_id`
 * (Zulip's person shapes): the full name, the role, being active, a custom profile field's
 * value (null when cleared), the real address (null for those who may no longer see it), the
 * API address, the avatar, a bot's owner.
 */
export const realmUserUpdateEvent = apiSchema(
  'RealmUserUpdateEvent',
  z.object({
    ...withOp('realm_user', 'update'),
    person: z.union([
      z.object({ user_id: int(), full_name: z.string() }),
      z.object({ user_id: int(), role: z.union([z.literal(100), z.literal(200), z.literal(300), z.literal(400), z.literal(600)]) }),
      z.object({ user_id: int(), is_active: z.boolean() }),
      z.object({
        user_id: int(),
        custom_profile_field: z.object({ id: int(), value: z.string().nullable(), rendered_value: z.string().optional() }),
      }),
      z.object({ user_id: int(), delivery_email: z.string().nullable() }),
      z.object({ user_id: int(), new_email: z.string() }),
      z.object({ user_id: int(), avatar_source: z.string(), avatar_url: z.string(), avatar_url_medium: z.string(), avatar_version: int() }),
      z.object({ user_id: int(), bot_owner_id: int() }),
    ]),
  }),
);

/** `realm_user_settings_defaults` update: one of the organization's defaults for new users changed. */
export const realmUserSettingsDefaultsUpdateEvent = apiSchema(
  'RealmUserSettingsDefaultsUpdateEvent',
  z.union([
    z.object({ ...withOp('realm_user_settings_defaults', 'update'), property: z.enum(settingNamesOfType('boolean')), value: z.boolean() }),
    z.object({ ...withOp('realm_user_settings_defaults', 'update'), property: z.enum(settingNamesOfType('number')), value: int() }),
    z.object({ ...withOp('realm_user_settings_defaults', 'update'), property: z.enum(settingNamesOfType('string')), value: z.string() }),
  ]),
);

/** `user_topic`: the recipient's visibility policy of a topic changed (0: back to inherit). */
export const userTopicEvent = apiSchema('UserTopicEvent', z.object({ ...base('user_topic'), ...userTopicSchema.shape }));

/** `default_streams`: the organization's default channels changed; every default channel's id. */
export const defaultStreamsEvent = apiSchema('DefaultStreamsEvent', z.object({ ...base('default_streams'), default_streams: z.array(int()) }));

/** `user_group` events: a group added (or reactivated, for clients without include_deactivated_groups), changed, removed. */
export const userGroupAddEvent = apiSchema('UserGroupAddEvent', z.object({ ...withOp('user_group', 'add'), group: userGroupSchema }));
export const userGroupUpdateEvent = apiSchema(
  'UserGroupUpdateEvent',
  z.object({
    ...withOp('user_group', 'update'),
    group_id: int(),
    data: z
      .object({
        name: z.string(),
        description: z.string(),
        deactivated: z.boolean(),
        ...perSettingOf(GROUP_PERMISSION_SETTING_NAMES, () => groupSettingValueSchema),
      })
      .partial(),
  }),
);
export const userGroupRemoveEvent = apiSchema('UserGroupRemoveEvent', z.object({ ...withOp('user_group', 'remove'), group_id: int() }));
const groupMembersEvent = <O extends 'add_members' | 'remove_members'>(op: O) =>
  z.object({ ...withOp('user_group', op), group_id: int(), user_ids: z.array(int()) });
export const userGroupAddMembersEvent = apiSchema('UserGroupAddMembersEvent', groupMembersEvent('add_members'));
export const userGroupRemoveMembersEvent = apiSchema('UserGroupRemoveMembersEvent', groupMembersEvent('remove_members'));
const subgroupsEvent = <O extends 'add_subgroups' | 'remove_subgroups'>(op: O) =>
  z.object({ ...withOp('user_group', op), group_id: int(), direct_subgroup_ids: z.array(int()) });
export const userGroupAddSubgroupsEvent = apiSchema('UserGroupAddSubgroupsEvent', subgroupsEvent('add_subgroups'));
export const userGroupRemoveSubgroupsEvent = apiSchema('UserGroupRemoveSubgroupsEvent', subgroupsEvent('remove_subgroups'));
/** `navigation_view` add: a view the recipient stored (POST /navigation_views). */
export const navigationViewAddEvent = apiSchema(
  'NavigationViewAddEvent',
  z.object({ ...withOp('navigation_view', 'add'), navigation_view: navigationViewSchema }),
);
/** `navigation_view` update: the changed keys of one of the recipient's views (PATCH /navigation_views/{fragment}). */
export const navigationViewUpdateEvent = apiSchema(
  'NavigationViewUpdateEvent',
  z.object({
    ...withOp('navigation_view', 'update'),
    fragment: z.string(),
    data: z.object({ is_pinned: z.boolean().optional(), name: z.string().optional() }),
  }),
);
/** `navigation_view` remove: a view the recipient removed. */
export const navigationViewRemoveEvent = apiSchema(
  'NavigationViewRemoveEvent',
  z.object({ ...withOp('navigation_view', 'remove'), fragment: z.string() }),
);

/** `channel_folder` add: a folder created (POST /channel_folders/create). */
export const channelFolderAddEvent = apiSchema(
  'ChannelFolderAddEvent',
  z.object({ ...withOp('channel_folder', 'add'), channel_folder: channelFolderSchema }),
);
/** `channel_folder` update: the changed keys of a folder (PATCH /channel_folders/{channel_folder_id}); a new description comes rendered too. */
export const channelFolderUpdateEvent = apiSchema(
  'ChannelFolderUpdateEvent',
  z.object({
    ...withOp('channel_folder', 'update'),
    channel_folder_id: int(),
    data: z.object({
      name: z.string().optional(),
      description: z.string().optional(),
      rendered_description: z.string().optional(),
      is_archived: z.boolean().optional(),
    }),
  }),
);
/** `channel_folder` reorder: every folder id of the organization in its new order (PATCH /channel_folders). */
export const channelFolderReorderEvent = apiSchema(
  'ChannelFolderReorderEvent',
  z.object({ ...withOp('channel_folder', 'reorder'), order: z.array(int()) }),
);

/** `scheduled_messages` add: messages the caller scheduled (POST /scheduled_messages). */
export const scheduledMessagesAddEvent = apiSchema(
  'ScheduledMessagesAddEvent',
  z.object({ ...withOp('scheduled_messages', 'add'), scheduled_messages: z.array(scheduledMessageSchema) }),
);
/** `scheduled_messages` update: one edited, or failed at delivery. */
export const scheduledMessagesUpdateEvent = apiSchema(
  'ScheduledMessagesUpdateEvent',
  z.object({ ...withOp('scheduled_messages', 'update'), scheduled_message: scheduledMessageSchema }),
);
/** `scheduled_messages` remove: one deleted, or delivered. */
export const scheduledMessagesRemoveEvent = apiSchema(
  'ScheduledMessagesRemoveEvent',
  z.object({ ...withOp('scheduled_messages', 'remove'), scheduled_message_id: int() }),
);

/** Every event a queue can deliver, as GET /events shows it (with its queue `id`). */
export const clientEventSchema = apiSchema(
  'Event',
  z.union([
    heartbeatEvent,
    messageEvent,
    typingStartEvent,
    typingStopEvent,
    presenceEvent,
    userStatusEvent,
    realmUserAddEvent,
    pushDeviceEvent,
    draftsAddEvent,
    draftsUpdateEvent,
    draftsRemoveEvent,
    subscriptionAddEvent,
    subscriptionRemoveEvent,
    subscriptionUpdateEvent,
    subscriptionPeerAddEvent,
    subscriptionPeerRemoveEvent,
    streamCreateEvent,
    streamDeleteEvent,
    streamUpdateEvent,
    deleteMessageEvent,
    updateMessageEvent,
    reactionAddEvent,
    reactionRemoveEvent,
    updateMessageFlagsAddEvent,
    updateMessageFlagsRemoveEvent,
    userSettingsUpdateEvent,
    realmUserUpdateEvent,
    realmUserSettingsDefaultsUpdateEvent,
    userTopicEvent,
    defaultStreamsEvent,
    userGroupAddEvent,
    userGroupUpdateEvent,
    userGroupRemoveEvent,
    userGroupAddMembersEvent,
    userGroupRemoveMembersEvent,
    userGroupAddSubgroupsEvent,
    userGroupRemoveSubgroupsEvent,
    navigationViewAddEvent,
    navigationViewUpdateEvent,
    navigationViewRemoveEvent,
    channelFolderAddEvent,
    channelFolderUpdateEvent,
    channelFolderReorderEvent,
    scheduledMessagesAddEvent,
    scheduledMessagesUpdateEvent,
    scheduledMessagesRemoveEvent,
  ]),
);
export type ClientEventRecord = z.output<typeof clientEventSchema>;

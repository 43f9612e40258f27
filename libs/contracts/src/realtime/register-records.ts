import { z } from 'zod';
import { apiSchema, int } from '../api/api-schemas';
import { userSchema } from '../users-groups/users';

// The records POST /register's initial state lists; register-response.ts re-exports them.

/**
 * A member as `realm_users` and `realm_non_active_users` list them: GET /users' record without
 * `is_active` (the list says it).
 */
export const realmUserSchema = apiSchema('RealmUser', userSchema.omit({ is_active: true }));

/** A custom profile field as Zulip's CustomProfileField.as_dict writes it. */
export const customProfileFieldSchema = apiSchema(
  'CustomProfileField',
  z.object({
    id: int(),
    name: z.string(),
    /** The field's type: one of the ids of `custom_profile_field_types`. */
    type: int(),
    hint: z.string(),
    /** Type-specific configuration as JSON text (the options of a list, say); "" when none. */
    field_data: z.string(),
    /** Position among the organization's fields. */
    order: int(),
    required: z.boolean(),
    editable_by_user: z.boolean(),
    /** Present (true) only for fields shown in user profile summaries. */
    display_in_profile_summary: z.boolean().optional(),
  }),
);

/** A topic the caller set a visibility policy for (`user_topics`). */
export const userTopicSchema = apiSchema(
  'UserTopic',
  z.object({
    stream_id: int(),
    topic_name: z.string(),
    /** Unix seconds of the last change. */
    last_updated: int(),
    /** 1 muted, 2 unmuted, 3 followed (0, inherit, is never listed). */
    visibility_policy: int(),
  }),
);

const messageIds = () => z.array(int());

/**
 * The caller's unread messages (Zulip's unread_msgs): at most the newest 50,000, grouped by
 * conversation.
 */
export const unreadMessagesSchema = apiSchema(
  'UnreadMessages',
  z.object({
    /** How many unread messages are not muted for the caller. */
    count: int(),
    /** One-on-one conversations (and notes to self), by the other participant. */
    pms: z.array(
      z.object({
        other_user_id: int(),
        /** Deprecated: the same as `other_user_id`. */
        sender_id: int(),
        unread_message_ids: messageIds(),
      }),
    ),
    /** Channel topics. */
    streams: z.array(z.object({ topic: z.string(), stream_id: int(), unread_message_ids: messageIds() })),
    /** Group direct-message conversations, by their participants' ids, comma-separated in ascending order. */
    huddles: z.array(z.object({ user_ids_string: z.string(), unread_message_ids: messageIds() })),
    /** Unread messages that mention the caller (wildcard mentions only where not muted). */
    mentions: messageIds(),
    /** True when there are more unread messages than the ones described. */
    old_unreads_missing: z.boolean(),
  }),
);

/** A custom emoji as `realm_emoji` lists it (Zulip's RealmEmoji). */
export const realmEmojiSchema = apiSchema(
  'RealmEmoji',
  z.object({
    id: z.string(),
    name: z.string(),
    source_url: z.string(),
    /** The still version of an animated emoji; null otherwise. */
    still_url: z.string().nullable(),
    deactivated: z.boolean(),
    author_id: int().nullable(),
  }),
);

/** A bot as `realm_bots` lists it (Zulip's get_owned_bot_dicts). */
export const realmBotSchema = apiSchema(
  'RealmBot',
  z.object({
    user_id: int(),
    full_name: z.string(),
    api_key: z.string(),
    /** Bots' default channels come with the bots feature: null. */
    default_sending_stream: z.string().nullable(),
    default_events_register_stream: z.string().nullable(),
    default_all_public_streams: z.boolean(),
    avatar_url: z.string(),
    owner_id: int().nullable(),
    services: z.array(z.unknown()),
    email: z.string(),
    bot_type: int().nullable(),
    is_active: z.boolean(),
  }),
);

// ---------------------------------------------------------------------------------------------

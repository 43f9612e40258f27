import type { Push } from '@teamchat/contracts';

/** Zulip's UserTopic visibility policies. */
export const Visibility = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

/** Flag bits of user_messages (Zulip's UserMessage flags). */
export const MessageFlag = { read: 1, mentioned: 8, streamWildcard: 16, topicWildcard: 32 } as const;

/** What the rules need to know about one recipient of one message. */
export interface RecipientFacts {
  userId: number;
  isActive: boolean;
  isBot: boolean;
  /** user_messages flag bits. */
  flags: number;
  /** A client of theirs is open (an event queue taking messages). */
  clientOpen: boolean;
  settings: {
    enable_offline_push_notifications: boolean;
    enable_online_push_notifications: boolean;
    enable_offline_email_notifications: boolean;
    enable_stream_push_notifications: boolean;
    enable_stream_email_notifications: boolean;
    enable_followed_topic_push_notifications: boolean;
    enable_followed_topic_email_notifications: boolean;
    wildcard_mentions_notify: boolean;
    enable_followed_topic_wildcard_mentions_notify: boolean;
  };
  /** Channel messages: the recipient's subscription (null properties follow the settings). */
  subscription?: { isMuted: boolean; pushNotifications: boolean | null; emailNotifications: boolean | null; wildcardMentionsNotify: boolean | null };
  /** Channel messages: the recipient's policy for the topic. */
  visibility?: number;
}

export interface MessageFacts {
  senderId: number;
  isDirect: boolean;
}

export interface Notifications {
  push: Push.NotificationTrigger | null;
  email: Push.NotificationTrigger | null;
}

/**
 * Zulip's user_allows_notifications_in_StreamTopic: nothing from a muted topic, nor from a
 * muted channel unless the topic is unmuted or followed; then the subscription's own setting,
 * else the user's global one.
 */
function allowedInChannel(facts: RecipientFacts, own: boolean | null | undefined, global: boolean): boolean {
  const policy = facts.visibility ?? Visibility.inherit;
  if (policy === Visibility.muted) return false;
  if (facts.subscription?.isMuted && policy !== Visibility.unmuted && policy !== Visibility.followed) return false;
  return own ?? global;
}

/**
 * Who is notified of a message, and why (Zulip's UserMessageNotificationsData with the user id
 * sets of get_recipient_info, and its get_push/email_notification_trigger): never the sender, a
 * bot or a deactivated user; push only when off the app unless enable_online_push_notifications,
 * email only when off the app. The first trigger that applies wins, in Zulip's order: direct
 * message, personal or group mention (even in a muted topic, as in Zulip), wildcard mentions in a
 * followed topic, wildcard mentions, a followed topic, the channel's own setting.
 */
export function notificationsFor(message: MessageFacts, facts: RecipientFacts): Notifications {
  const none = { push: null, email: null };
  if (facts.userId === message.senderId || facts.isBot || !facts.isActive) return none;
  const s = facts.settings;
  const idle = !facts.clientOpen;
  const followed = !message.isDirect && facts.visibility === Visibility.followed;
  const mentioned = (facts.flags & MessageFlag.mentioned) !== 0;
  const topicWildcard = (facts.flags & MessageFlag.topicWildcard) !== 0;
  const streamWildcard = (facts.flags & MessageFlag.streamWildcard) !== 0;
  const wildcardsNotify = !message.isDirect && allowedInChannel(facts, facts.subscription?.wildcardMentionsNotify, s.wildcard_mentions_notify);
  const wildcardsInFollowed = followed && s.enable_followed_topic_wildcard_mentions_notify;

  const trigger = (personal: boolean, followedTopic: boolean, channel: boolean, kind: 'push' | 'email'): Push.NotificationTrigger | null => {
    if (message.isDirect && personal) return 'private_message';
    if (mentioned && personal) return 'mentioned';
    if (topicWildcard && wildcardsInFollowed && personal) return 'topic_wildcard_mentioned_in_followed_topic';
    if (streamWildcard && wildcardsInFollowed && personal) return 'stream_wildcard_mentioned_in_followed_topic';
    if (topicWildcard && wildcardsNotify && personal) return 'topic_wildcard_mentioned';
    if (streamWildcard && wildcardsNotify && personal) return 'stream_wildcard_mentioned';
    if (followedTopic) return kind === 'push' ? 'followed_topic_push_notify' : 'followed_topic_email_notify';
    if (channel) return kind === 'push' ? 'stream_push_notify' : 'stream_email_notify';
    return null;
  };

  const channelPush = !message.isDirect && allowedInChannel(facts, facts.subscription?.pushNotifications, s.enable_stream_push_notifications);
  const channelEmail = !message.isDirect && allowedInChannel(facts, facts.subscription?.emailNotifications, s.enable_stream_email_notifications);
  const push =
    idle || s.enable_online_push_notifications
      ? trigger(s.enable_offline_push_notifications, followed && s.enable_followed_topic_push_notifications, channelPush, 'push')
      : null;
  const email = idle ? trigger(s.enable_offline_email_notifications, followed && s.enable_followed_topic_email_notifications, channelEmail, 'email') : null;
  return { push, email };
}

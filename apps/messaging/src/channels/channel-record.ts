import type { ChannelRecord, SubscriptionRecord } from '@teamchat/contracts';

/** The columns of a channel row the API shows. */
export interface ChannelRow {
  id: number;
  name: string;
  description: string;
  renderedDescription: string;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  isArchived: boolean;
  creatorId: number | null;
  firstMessageId: number | null;
  dateCreated: Date;
  folderId: number | null;
}

/** Figures a listing adds to each channel. */
export interface ChannelStats {
  subscriberCount: number;
  /** Zulip: a message in the last 180 days, or created in the last 180 days. */
  isRecentlyActive: boolean;
}

export interface SubscriptionRow {
  color: string;
  isMuted: boolean;
  pinToTop: boolean;
  desktopNotifications: boolean | null;
  audibleNotifications: boolean | null;
  pushNotifications: boolean | null;
  emailNotifications: boolean | null;
  wildcardMentionsNotify: boolean | null;
}

export function toChannelRecord(channel: ChannelRow, stats: ChannelStats): ChannelRecord {
  return {
    stream_id: channel.id,
    name: channel.name,
    description: channel.description,
    rendered_description: channel.renderedDescription,
    date_created: Math.floor(channel.dateCreated.getTime() / 1000),
    creator_id: channel.creatorId,
    invite_only: channel.inviteOnly,
    is_web_public: channel.isWebPublic,
    history_public_to_subscribers: channel.historyPublicToSubscribers,
    first_message_id: channel.firstMessageId,
    message_retention_days: null,
    stream_post_policy: 1,
    is_announcement_only: false,
    is_archived: channel.isArchived,
    stream_weekly_traffic: null,
    folder_id: channel.folderId,
    is_recently_active: stats.isRecentlyActive,
    subscriber_count: stats.subscriberCount,
  };
}

export function toSubscriptionRecord(
  channel: ChannelRow,
  stats: ChannelStats,
  sub: SubscriptionRow,
  subscribers?: number[],
): SubscriptionRecord {
  return {
    ...toChannelRecord(channel, stats),
    color: sub.color,
    is_muted: sub.isMuted,
    in_home_view: !sub.isMuted,
    pin_to_top: sub.pinToTop,
    desktop_notifications: sub.desktopNotifications,
    audible_notifications: sub.audibleNotifications,
    push_notifications: sub.pushNotifications,
    email_notifications: sub.emailNotifications,
    wildcard_mentions_notify: sub.wildcardMentionsNotify,
    ...(subscribers ? { subscribers } : {}),
  };
}

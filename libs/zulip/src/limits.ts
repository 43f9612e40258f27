/** Limits served by POST /register and enforced by the owning services (Zulip's defaults). */
export const LIMITS = {
  maxMessageLength: 10000,
  maxTopicLength: 60,
  maxStreamNameLength: 60,
  maxStreamDescriptionLength: 1024,
  maxChannelFolderNameLength: 60,
  maxChannelFolderDescriptionLength: 1024,
  maxFileUploadSizeMib: 100,
  maxAvatarFileSizeMib: 5,
  /** Zulip's MAX_ICON_FILE_SIZE_MIB and MAX_LOGO_FILE_SIZE_MIB (the organization's icon and logos). */
  maxIconFileSizeMib: 5,
  maxLogoFileSizeMib: 5,
  /** Zulip's MAX_EMOJI_FILE_SIZE_MIB (not announced by POST /register). */
  maxEmojiFileSizeMib: 5,
  maxStatusTextLength: 60,
  maxFullNameLength: 100,
  maxEmailLength: 254,
  serverTypingStartedWaitPeriodMs: 30000,
  serverTypingStoppedWaitPeriodMs: 12000,
  serverTypingStartedExpiryPeriodMs: 45000,
  eventQueueLongpollTimeoutSeconds: 90,
} as const;

/** What clients show for the empty topic name ("realm_empty_topic_display_name"). */
export const EMPTY_TOPIC_DISPLAY_NAME = 'general chat';

/** Zulip's mark of a resolved topic (zerver/lib/topic.py RESOLVED_TOPIC_PREFIX). */
export const RESOLVED_TOPIC_PREFIX = '\u2714 ';

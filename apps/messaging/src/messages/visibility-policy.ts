/** Zulip's topic visibility policies. */
export const Visibility = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

/** Values of automatically_follow_topics_policy and …_unmute_topics_in_muted_streams_policy. */
export const AutoPolicy = { ON_PARTICIPATION: 1, ON_SEND: 2, ON_INITIATION: 3, NEVER: 4 } as const;

export interface SendContext {
  current: number;
  /** This message starts the topic. */
  initiates: boolean;
  channelMuted: boolean;
  followPolicy: number;
  unmutePolicy: number;
}

/**
 * The visibility a send gives the sender's topic, or null for no change
 * (zerver/lib/message.py visibility_policy_for_send_message). Sending is participating,
 * so "on participation" and "on send" both apply; "on initiation" only to a new topic.
 */
export function visibilityAfterSend(ctx: SendContext): number | null {
  if (ctx.current === Visibility.FOLLOWED) return null;
  const applies = (policy: number) =>
    policy === AutoPolicy.ON_PARTICIPATION ||
    policy === AutoPolicy.ON_SEND ||
    (policy === AutoPolicy.ON_INITIATION && ctx.initiates);
  if (applies(ctx.followPolicy)) return Visibility.FOLLOWED;
  if (ctx.channelMuted && ctx.current !== Visibility.UNMUTED && applies(ctx.unmutePolicy)) return Visibility.UNMUTED;
  return null;
}

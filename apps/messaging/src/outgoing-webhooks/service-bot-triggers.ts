import { BotType, type Messaging } from '@teamchat/contracts';

/** The people of a message the rule looks at: whether each is an active outgoing webhook bot. */
type Profile = { isActive: boolean; botType?: number | null };

/**
 * Zulip's get_service_bot_events for outgoing webhook bots: nothing a bot sends triggers
 * anything (no loops); in a channel, a bot mentioned (directly or through a group, not
 * silently) is triggered by `mention`, whether or not it is subscribed; a direct message
 * triggers each bot among its recipients by `direct_message`. Active bots only.
 */
export function serviceBotTriggers(input: {
  senderIsBot: boolean;
  senderId: number;
  isChannel: boolean;
  mentionedUserIds: Iterable<number>;
  directRecipientIds: number[];
  profiles: Map<number, Profile>;
}): Messaging.OutgoingWebhookTriggered['bots'] {
  if (input.senderIsBot) return [];
  const isServiceBot = (id: number) => {
    const profile = input.profiles.get(id);
    return id !== input.senderId && profile !== undefined && profile.isActive && profile.botType === BotType.OUTGOING_WEBHOOK;
  };
  const candidates = input.isChannel ? [...new Set(input.mentionedUserIds)] : input.directRecipientIds;
  const trigger = input.isChannel ? ('mention' as const) : ('direct_message' as const);
  return candidates.filter(isServiceBot).sort((a, b) => a - b).map((userId) => ({ userId, trigger }));
}

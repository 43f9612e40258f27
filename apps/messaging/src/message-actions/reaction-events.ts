import { MessagingEvents, type AuthUser } from '@teamchat/contracts';
import { outgoing, type OutgoingEvent } from '../core/outgoing-events';

/** `reaction` add/remove, for everyone who can see the message. */
export const reactionEvent = (
  realmId: number,
  users: number[],
  op: 'add' | 'remove',
  reactor: AuthUser,
  messageId: number,
  emoji: { name: string; code: string; type: string },
): OutgoingEvent =>
  outgoing(MessagingEvents.reactionChanged, {
    realmId,
    users,
    event: {
      type: 'reaction',
      op,
      message_id: messageId,
      emoji_name: emoji.name,
      emoji_code: emoji.code,
      reaction_type: emoji.type,
      user_id: reactor.id,
      user: { user_id: reactor.id, email: reactor.email, full_name: reactor.fullName },
    },
  });

import { Injectable } from '@nestjs/common';
import type { Messaging, PayloadOf } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { ZulipError } from '@teamchat/zulip';
import { ReactionsRepository } from '../data/reactions.repository';
import { ActedMessages } from './acted-message';
import { ReactionEmoji } from './reaction-emoji';
import { reactionEvent } from './reaction-events';

type Command = PayloadOf<typeof Messaging.removeReaction>;

/**
 * DELETE /messages/{message_id}/reactions (check_remove_reaction): the emoji by code (and type,
 * unicode_emoji unless given), or by name looked up as when adding.
 */
@Injectable()
export class RemoveReaction {
  constructor(
    private readonly reactions: ReactionsRepository,
    private readonly messages: ActedMessages,
    private readonly emoji: ReactionEmoji,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: Command): Promise<Record<string, never>> {
    const caller = user;
    const message = await this.messages.readable(realm, caller, params.message_id);
    const { code, type } = await this.emoji.resolve(realm.id, params.emoji_name, params.emoji_code, this.emoji.typeOf(params.reaction_type) ?? 'unicode_emoji');
    const audience = await this.messages.audience([message.id], message);
    return this.outbox.run(async (tx) => {
      const removed = await this.reactions.remove(message.id, caller.id, code, type, tx);
      if (removed === null) throw new ZulipError('REACTION_DOES_NOT_EXIST', "Reaction doesn't exist."); // Zulip's ReactionDoesNotExistError
      return { value: {}, events: [reactionEvent(realm.id, audience.map((u) => u.id), 'remove', caller, message.id, { name: removed, code, type })] };
    }, requestId);
  }
}

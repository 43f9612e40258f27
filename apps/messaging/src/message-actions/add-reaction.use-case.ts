import { Injectable } from '@nestjs/common';
import type { Messaging, PayloadOf } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { ZulipError, isGuestRole } from '@teamchat/zulip';
import { MessageFlagsRepository } from '../data/message-flags.repository';
import { ReactionsRepository } from '../data/reactions.repository';
import { Flag } from '../messages/message-flags';
import { ActedMessages } from './acted-message';
import { ReactionEmoji } from './reaction-emoji';
import { reactionEvent } from './reaction-events';

type Command = PayloadOf<typeof Messaging.addReaction>;

/** Zulip's ReactionExistsError: its own code, REACTION_ALREADY_EXISTS. */
const reactionExists = () => new ZulipError('REACTION_ALREADY_EXISTS', 'Reaction already exists.');

/**
 * POST /messages/{message_id}/reactions (zerver/views/reactions.py, check_add_reaction): a name
 * alone is looked up; an emoji someone already reacted with to the message needs no further
 * check (a since deactivated custom emoji stays usable there). A message read through its
 * channel's history gets the caller a historical row, as in Zulip.
 */
@Injectable()
export class AddReaction {
  constructor(
    private readonly reactions: ReactionsRepository,
    private readonly flags: MessageFlagsRepository,
    private readonly messages: ActedMessages,
    private readonly emoji: ReactionEmoji,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: Command): Promise<Record<string, never>> {
    const caller = user;
    const message = await this.messages.readable(realm, caller, params.message_id);
    const { code, type } = await this.emoji.resolve(realm.id, params.emoji_name, params.emoji_code, this.emoji.typeOf(params.reaction_type));
    const existing = await this.reactions.ofMessages([message.id]);
    if (existing.some((r) => r.userId === caller.id && r.emojiCode === code && r.reactionType === type)) {
      throw reactionExists();
    }
    if (!existing.some((r) => r.emojiCode === code && r.reactionType === type)) await this.emoji.check(realm.id, params.emoji_name, code, type);

    const audience = await this.messages.audience([message.id], message);
    return this.outbox.run(async (tx) => {
      if (message.flags === null && !isGuestRole(caller.role)) {
        await this.flags.insertHistorical(caller.id, message.id, Flag.read | Flag.historical, tx);
      }
      const added = await this.reactions.add(message.id, caller.id, params.emoji_name, code, type, tx);
      if (!added) throw reactionExists(); // a concurrent request added it first
      const event = reactionEvent(realm.id, audience.map((u) => u.id), 'add', caller, message.id, { name: params.emoji_name, code, type });
      return { value: {}, events: [event] };
    }, requestId);
  }
}

import { Injectable } from '@nestjs/common';
import type { Messaging, PayloadOf } from '@teamchat/contracts';
import { PgService } from '@teamchat/db';
import { EventBus } from '@teamchat/platform';
import { badRequest } from '@teamchat/zulip';
import { deleteReaction } from '../core/messaging.sql';
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
    private readonly pg: PgService,
    private readonly messages: ActedMessages,
    private readonly emoji: ReactionEmoji,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: Command): Promise<Record<string, never>> {
    const caller = user!;
    const message = await this.messages.readable(realm, caller, params.message_id);
    let code = params.emoji_code;
    let type = this.emoji.typeOf(params.reaction_type) ?? 'unicode_emoji';
    if (code === undefined) {
      if (params.emoji_name === undefined) throw badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');
      const found = await this.emoji.lookUp(realm.id, params.emoji_name);
      code = found.code;
      type = found.type;
    }
    const [removed] = await this.pg.run(deleteReaction, message.id, caller.id, code, type);
    if (!removed) throw badRequest("Reaction doesn't exist.");
    const audience = await this.messages.audience([message.id], message);
    await this.events.publishAll(
      [reactionEvent(realm.id, audience.map((u) => u.id), 'remove', caller, message.id, { name: removed.emojiName, code, type })],
      requestId,
    );
    return {};
  }
}

import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { EventBus } from '@teamchat/platform';
import type { DecodedParams } from '@teamchat/zulip';
import { MessageFlagsRepository } from '../data/message-flags.repository';
import { messagesReadEvent } from '../topics/topic-events';

/**
 * POST /mark_all_as_read (zerver/views/message_flags.py): every unread message of the caller
 * becomes read in one statement, and the caller's clients are told which. Always complete here
 * (Zulip works in timed batches and may answer `complete: false`).
 */
@Injectable()
export class MarkAllAsRead {
  constructor(
    private readonly flags: MessageFlagsRepository,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, requestId }: UserCommand<DecodedParams<typeof Messaging.markAllAsReadParams>>): Promise<{ complete: boolean }> {
    const read = (await this.flags.markAllRead(user.id)).sort((a, b) => a - b);
    if (read.length > 0) await this.events.publishAll([messagesReadEvent(realm.id, user.id, read)], requestId);
    return { complete: true };
  }
}

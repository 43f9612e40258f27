import { Injectable } from '@nestjs/common';
import { EventOutbox } from '@teamchat/db';
import type { UserCommand, Messaging } from '@teamchat/contracts';
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
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, requestId }: UserCommand<DecodedParams<typeof Messaging.markAllAsReadParams>>): Promise<{ complete: boolean }> {
    return this.outbox.run(async (tx) => {
      const read = (await this.flags.markAllRead(user.id, tx)).sort((a, b) => a - b);
      return { value: { complete: true }, events: read.length > 0 ? [messagesReadEvent(realm.id, user.id, read)] : [] };
    }, requestId);
  }
}

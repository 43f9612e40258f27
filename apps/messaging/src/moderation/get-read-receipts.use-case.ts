import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { MessageFlagsRepository } from '../data/message-flags.repository';
import { RealmsReadonlyRepository } from '../data/realms.readonly.repository';
import { ActedMessages } from '../message-actions/acted-message';

/**
 * GET /messages/{message_id}/read_receipts (zerver/views/read_receipts.py): the message must be
 * one the caller may read ("Invalid message(s)"), then the organization must have read receipts
 * on. Answers who read it, by readReceipts' rules (each user's send_read_receipts, never the
 * sender, no one muted either way, deactivated users left out, the caller included).
 */
@Injectable()
export class GetReadReceipts {
  constructor(
    private readonly acted: ActedMessages,
    private readonly realms: RealmsReadonlyRepository,
    private readonly flags: MessageFlagsRepository,
  ) {}

  async execute({ realm, user, params }: UserCommand<DecodedParams<typeof Messaging.messagePathParams>>): Promise<{ user_ids: number[] }> {
    const message = await this.acted.readable(realm, user, params.message_id);
    if (!(await this.realms.moderationSettings(realm.id)).enableReadReceipts) throw badRequest('Read receipts are disabled in this organization.');
    return { user_ids: await this.flags.readReceipts(message.id, user.id) };
  }
}

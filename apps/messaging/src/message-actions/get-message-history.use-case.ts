import { Injectable } from '@nestjs/common';
import type { Messaging, PayloadOf, ResultOf } from '@teamchat/contracts';
import { ActedMessages } from './acted-message';
import { messageHistory } from './edit-history';

type Command = PayloadOf<typeof Messaging.getMessageHistory>;

/** GET /messages/{message_id}/history (zerver/views/message_edit.py get_message_edit_history). */
@Injectable()
export class GetMessageHistory {
  constructor(private readonly messages: ActedMessages) {}

  async execute({ realm, user, params }: Command): Promise<ResultOf<typeof Messaging.getMessageHistory>> {
    const message = await this.messages.readable(realm, user, params.message_id);
    return { message_history: messageHistory(message, params.allow_empty_topic_name) };
  }
}

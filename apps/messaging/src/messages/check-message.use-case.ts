import { Injectable } from '@nestjs/common';
import type { Messaging, PayloadOf } from '@teamchat/contracts';
import { SendMessage } from './send-message.use-case';

/**
 * Internal, for the scheduler (messaging.check_message): every check POST /messages makes, for
 * a message to be sent later. Nothing is sent; the answer is the message as it would be stored.
 */
@Injectable()
export class CheckMessage {
  constructor(private readonly sendMessage: SendMessage) {}

  execute({ realm, user, requestId, client, type, to, topic, content }: PayloadOf<typeof Messaging.checkMessage>): Promise<Messaging.CheckedMessage> {
    return this.sendMessage.check({
      realm,
      user,
      requestId,
      client,
      params: { type, to, topic, content, queue_id: undefined, local_id: undefined, read_by_sender: undefined },
    });
  }
}

import { Injectable } from '@nestjs/common';
import type { Messaging, PayloadOf } from '@teamchat/contracts';
import { SendMessage } from './send-message.use-case';
import { StoredSenders } from './stored-senders';

type Payload = PayloadOf<typeof Messaging.sendScheduledMessage>;

/**
 * Internal, for the scheduler (messaging.send_scheduled_message): sends as the stored sender
 * through SendMessage, so every rule of sending is checked again at delivery time. The sender
 * and organization must still be active (StoredSenders). With a key, a scheduled message
 * becomes at most one message.
 */
@Injectable()
export class SendScheduledMessage {
  constructor(
    private readonly senders: StoredSenders,
    private readonly sendMessage: SendMessage,
  ) {}

  /**
   * `systemSender` (never from the wire): the sender is the organization's notification bot
   * posting a notice, which may post in any channel of its organization (see SendMessage).
   */
  async execute(payload: Payload, { systemSender = false }: { systemSender?: boolean } = {}): Promise<{ id: number; alreadySent: boolean }> {
    const { realm, user } = await this.senders.identity(payload.realmId, payload.senderId);
    const command = {
      systemSender,
      realm,
      user,
      requestId: payload.requestId,
      client: payload.client,
      params: {
        type: payload.type,
        to: payload.to,
        topic: payload.topic,
        content: payload.content,
        queue_id: undefined,
        local_id: undefined,
        read_by_sender: payload.readBySender ?? undefined,
      },
    };
    if (payload.scheduledMessageId === undefined) {
      const { id } = await this.sendMessage.execute(command);
      return { id, alreadySent: false };
    }
    return this.sendMessage.sendOnce(command, payload.scheduledMessageId);
  }
}

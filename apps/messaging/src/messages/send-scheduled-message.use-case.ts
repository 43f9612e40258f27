import { Inject, Injectable } from '@nestjs/common';
import type { Messaging, PayloadOf, RealmRef } from '@teamchat/contracts';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { ZulipError, badRequest } from '@teamchat/zulip';
import { MemberProfilesReadonlyRepository } from '../data/member-profiles.readonly.repository';
import { SendMessage } from './send-message.use-case';

type Payload = PayloadOf<typeof Messaging.sendScheduledMessage>;

/**
 * Internal, for the scheduler (messaging.send_scheduled_message): sends as the stored sender
 * through SendMessage, so every rule of sending is checked again at delivery time. The sender
 * and organization must still be active (Zulip's UserDeactivatedError, RealmDeactivatedError).
 * With a key, a scheduled message becomes at most one message.
 */
@Injectable()
export class SendScheduledMessage {
  private readonly root: URL;

  constructor(
    private readonly people: MemberProfilesReadonlyRepository,
    private readonly sendMessage: SendMessage,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'EXTERNAL_URL'>,
  ) {
    this.root = new URL(config.EXTERNAL_URL);
  }

  /**
   * `systemSender` (never from the wire): the sender is the organization's notification bot
   * posting a notice, which may post in any channel of its organization (see SendMessage).
   */
  async execute(payload: Payload, { systemSender = false }: { systemSender?: boolean } = {}): Promise<{ id: number; alreadySent: boolean }> {
    const sender = await this.people.storedSender(payload.realmId, payload.senderId);
    if (!sender) throw badRequest('Invalid user ID');
    if (sender.realmDeactivated) throw new ZulipError('REALM_DEACTIVATED', 'This organization has been deactivated');
    if (!sender.isActive) throw new ZulipError('USER_DEACTIVATED', 'Account is deactivated');
    const host = sender.subdomain ? `${sender.subdomain}.${this.root.hostname}` : this.root.hostname;
    const realm: RealmRef = {
      id: payload.realmId,
      subdomain: sender.subdomain,
      name: sender.realmName,
      host,
      url: `${this.root.protocol}//${host}${this.root.port ? `:${this.root.port}` : ''}`,
    };
    const command = {
      systemSender,
      realm,
      user: {
        id: sender.id,
        realmId: payload.realmId,
        email: sender.isBot ? sender.deliveryEmail : `user${sender.id}@${host}`,
        deliveryEmail: sender.deliveryEmail,
        fullName: sender.fullName,
        role: sender.role,
        isBot: sender.isBot,
      },
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

import { Inject, Injectable } from '@nestjs/common';
import { Messaging, UsersGroups } from '@teamchat/contracts';
import { CommandClient, LOGGER } from '@teamchat/platform';
import type { Logger } from 'pino';
import type { StoredScheduledMessage } from '../data/scheduled-messages.repository';

/**
 * Zulip's send_failed_scheduled_message_notification: a direct message from the organization's
 * notification bot to the sender, naming the time and the reason. Best effort: a notice that
 * cannot be sent is logged, the failure itself is already recorded.
 */
@Injectable()
export class FailureNotice {
  constructor(
    private readonly commands: CommandClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async send(failed: StoredScheduledMessage): Promise<void> {
    try {
      const { userId: botId } = await this.commands.call(UsersGroups.notificationBot, { realmId: failed.realmId });
      const when = `<time:${failed.scheduledAt.toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;
      const content =
        `The message you scheduled for ${when} was not sent because of the following error:\n\n` +
        `> ${failed.failureMessage ?? ''}\n\n[View scheduled messages](#scheduled)\n\n`;
      await this.commands.call(Messaging.sendScheduledMessage, {
        realmId: failed.realmId,
        senderId: botId,
        client: 'Internal',
        readBySender: null,
        requestId: `scheduled-${failed.id}-failure`,
        type: 'private',
        to: JSON.stringify([failed.senderId]),
        content,
      });
    } catch (err) {
      this.logger.error({ err, scheduledMessageId: failed.id }, 'failure notice not sent');
    }
  }
}

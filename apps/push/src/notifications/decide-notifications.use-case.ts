import { Inject, Injectable } from '@nestjs/common';
import type { Push } from '@teamchat/contracts';
import { LOGGER } from '@teamchat/platform';
import type { Logger } from 'pino';
import { NotificationContextReadonlyRepository } from '../data/notification-context.readonly.repository';
import { MissedMessageEmails } from '../missed-emails/missed-message-emails';
import { MobilePushQueue } from './mobile-push.queue';
import { notificationsFor } from './notification-rules';
import { factsOf } from './recipient-facts';

/**
 * A message was delivered (the gateway's job, with who has a client open): who is notified of
 * it, by push and by email, per Zulip's rules (notification-rules.ts) over the recipients'
 * settings, subscriptions and topic policies as they are now. Pushes go to the mobile push
 * queue (one job for the message); emails wait for their recipient's batch. Running it twice
 * queues nothing twice (the push job's id is the message's; email rows are keyed).
 */
@Injectable()
export class DecideNotifications {
  constructor(
    private readonly context: NotificationContextReadonlyRepository,
    private readonly pushes: MobilePushQueue,
    private readonly emails: MissedMessageEmails,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(job: Push.MessageDeliveredJob): Promise<{ push: number; email: number }> {
    const message = await this.context.message(job.messageId);
    if (!message) return { push: 0, email: 0 }; // deleted meanwhile
    const isChannel = message.streamId !== null;
    const open = new Set(job.activeUserIds);
    const push: number[] = [];
    const email: { userId: number; trigger: Push.NotificationTrigger; batchingSeconds: number }[] = [];
    for (const row of await this.context.recipients(message)) {
      const facts = factsOf(row, open.has(row.userId), isChannel);
      const decided = notificationsFor({ senderId: message.senderId, isDirect: !isChannel }, facts);
      if (decided.push) push.push(row.userId);
      if (decided.email) email.push({ userId: row.userId, trigger: decided.email, batchingSeconds: facts.batchingSeconds });
    }
    if (push.length > 0) await this.pushes.pushMessage({ realmId: message.realmId, messageId: message.id, userIds: push });
    if (email.length > 0) await this.emails.schedule(message.realmId, message.id, email);
    this.logger.debug({ messageId: message.id, push: push.length, email: email.length }, 'notifications decided');
    return { push: push.length, email: email.length };
  }
}

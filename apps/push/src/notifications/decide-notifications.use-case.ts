import { Inject, Injectable } from '@nestjs/common';
import type { Push } from '@teamchat/contracts';
import { LOGGER } from '@teamchat/platform';
import type { Logger } from 'pino';
import { NotificationContextReadonlyRepository } from '../data/notification-context.readonly.repository';
import { PushDevicesRepository } from '../data/push-devices.repository';
import { MissedMessageEmails } from '../missed-emails/missed-message-emails';
import { MobilePushQueue } from './mobile-push.queue';
import { notificationsFor } from './notification-rules';
import { factsOf } from './recipient-facts';

type EmailEntry = { realmId: number; messageId: number; userId: number; trigger: Push.NotificationTrigger; batchingSeconds: number };

/**
 * Messages were delivered (the gateway's job, with who has a client open): who is notified of
 * each, by push and by email, per Zulip's rules (notification-rules.ts) over the recipients'
 * settings, subscriptions and topic policies as they are now — read for the whole batch in one
 * statement that leaves out, in SQL, whoever cannot be notified. Pushes go to the mobile push
 * queue (one job per message, its id the message's); emails wait for their recipient's batch
 * (rows keyed by user and message). Running it twice queues nothing twice while those wait.
 */
@Injectable()
export class DecideNotifications {
  constructor(
    private readonly context: NotificationContextReadonlyRepository,
    private readonly devices: PushDevicesRepository,
    private readonly pushes: MobilePushQueue,
    private readonly emails: MissedMessageEmails,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Answers, per message, how many users it notified by push and by email. */
  async execute(job: Push.MessagesDeliveredJob): Promise<Record<number, { push: number; email: number }>> {
    const delivered = new Map(job.messages.map((message) => [message.messageId, new Set(message.activeUserIds)]));
    const candidates = await this.context.candidates([...delivered.keys()]);
    const outcome: Record<number, { push: number; email: number }> = Object.fromEntries([...delivered.keys()].map((id) => [id, { push: 0, email: 0 }]));
    if (candidates.length === 0) return outcome;
    const messages = new Map((await this.context.messages([...new Set(candidates.map((row) => row.messageId))])).map((m) => [m.id, m]));
    const push = new Map<number, number[]>();
    const email: EmailEntry[] = [];
    for (const row of candidates) {
      const message = messages.get(row.messageId);
      if (!message) continue; // deleted meanwhile
      const isChannel = message.streamId !== null;
      // Off the app (Zulip): no client open, or no activity within the presence threshold.
      const active = (delivered.get(row.messageId)?.has(row.userId) ?? false) && row.presenceActive;
      const facts = factsOf(row, active, isChannel);
      const decided = notificationsFor({ senderId: message.senderId, isDirect: !isChannel }, facts);
      if (decided.push) push.set(message.id, [...(push.get(message.id) ?? []), row.userId]);
      if (decided.email) email.push({ realmId: message.realmId, messageId: message.id, userId: row.userId, trigger: decided.email, batchingSeconds: facts.batchingSeconds });
    }
    // A push job only for users with a device to reach (most users of a busy channel have none).
    const reachable = await this.devices.reachable([...new Set([...push.values()].flat())]);
    const jobs: Push.PushMessageJob[] = [];
    for (const [messageId, userIds] of push) {
      outcome[messageId].push = userIds.length;
      const reached = userIds.filter((id) => reachable.has(id));
      if (reached.length > 0) jobs.push({ realmId: messages.get(messageId)!.realmId, messageId, userIds: reached });
    }
    await this.pushes.pushMessages(jobs);
    await this.emails.schedule(email);
    for (const entry of email) outcome[entry.messageId].email++;
    this.logger.debug({ messages: job.messages.length, pushJobs: jobs.length, emails: email.length }, 'notifications decided');
    return outcome;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { UsersGroups, type PayloadOf, type Push } from '@teamchat/contracts';
import { APP_CONFIG, CommandClient, type AppConfig } from '@teamchat/platform';
import { ZulipError } from '@teamchat/zulip';
import { MissedMessageEmailsRepository } from '../data/missed-message-emails.repository';
import { NotificationContextReadonlyRepository } from '../data/notification-context.readonly.repository';
import { realmUrlOf } from '../notifications/push-payloads';

type Command = PayloadOf<typeof Push.unsubscribeMissedMessages>;

/**
 * The unsubscribe link of a missed-message email (Zulip's /accounts/unsubscribe/missed_messages):
 * the key names the user; users-groups turns their missed-message emails off. A key nobody has,
 * or another organization's, leads nowhere (NOT_FOUND).
 */
@Injectable()
export class UnsubscribeMissedMessages {
  constructor(
    private readonly batches: MissedMessageEmailsRepository,
    private readonly context: NotificationContextReadonlyRepository,
    private readonly commands: CommandClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ host, key, requestId }: Command): Promise<{ realmName: string }> {
    const invalid = new ZulipError('NOT_FOUND', 'Unknown or expired unsubscribe link.');
    if (!/^[0-9a-f]{40}$/.test(key)) throw invalid;
    const owner = await this.batches.byUnsubscribeKey(key);
    const user = owner ? await this.context.mailRecipient(owner.userId) : null;
    if (!owner || !user || new URL(realmUrlOf(user.subdomain, this.config.EXTERNAL_URL)).host !== host.toLowerCase()) throw invalid;
    await this.commands.call(UsersGroups.unsubscribeMissedMessageEmails, { realmId: owner.realmId, userId: owner.userId, requestId });
    return { realmName: user.realmName };
  }
}

import { Injectable } from '@nestjs/common';
import { UsersGroups } from '@teamchat/contracts';
import { badRequest } from '@teamchat/zulip';
import { OrganizationsRepository } from '../data/organizations.repository';
import { Transactions } from '../data/transactions';
import { UsersRepository } from '../data/users.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { CreateUser } from '../users/create-user.use-case';

/**
 * users-groups.notification_bot: the organization's notification bot, created the first time
 * it is asked for (a bot account `notification-bot@<organization host>`, "Notification Bot").
 * Creation is serialized per organization by an advisory lock, so there is only ever one.
 */
@Injectable()
export class NotificationBot {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly users: UsersRepository,
    private readonly transactions: Transactions,
    private readonly realms: RealmDirectory,
    private readonly createUser: CreateUser,
  ) {}

  async execute({ realmId }: { realmId: number }): Promise<{ userId: number }> {
    const subdomain = await this.organizations.subdomainOf(realmId);
    if (subdomain === null) throw badRequest('Invalid organization');
    const email = `${UsersGroups.NOTIFICATION_BOT_LOCAL_PART}@${this.realms.hostnameOf(subdomain)}`;
    const existing = await this.users.botWithEmail(realmId, email);
    if (existing !== null) return { userId: existing };
    return this.transactions.run(async (tx) => {
      await this.users.lockNotificationBotCreation(realmId, tx);
      const found = await this.users.botWithEmail(realmId, email, tx);
      if (found !== null) return { userId: found };
      const bot = await this.createUser.execute({ realmId, email, fullName: UsersGroups.NOTIFICATION_BOT_NAME, isBot: true, botType: 1 }, tx);
      return { userId: bot.id };
    });
  }
}

import { Injectable } from '@nestjs/common';
import { UsersGroups } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import { badRequest } from '@teamchat/zulip';
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
    private readonly prisma: PrismaService,
    private readonly realms: RealmDirectory,
    private readonly createUser: CreateUser,
  ) {}

  async execute({ realmId }: { realmId: number }): Promise<{ userId: number }> {
    const realm = await this.prisma.realm.findUnique({ where: { id: realmId }, select: { subdomain: true } });
    if (!realm) throw badRequest('Invalid organization');
    const email = `${UsersGroups.NOTIFICATION_BOT_LOCAL_PART}@${this.realms.hostnameOf(realm.subdomain)}`;
    const find = (tx: Pick<PrismaService, 'user'>) =>
      tx.user.findFirst({ where: { realmId, isBot: true, deliveryEmail: email }, select: { id: true } });
    const existing = await find(this.prisma);
    if (existing) return { userId: existing.id };
    return this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('notification-bot'), ${realmId})`;
      const found = await find(tx);
      if (found) return { userId: found.id };
      const bot = await this.createUser.execute({ realmId, email, fullName: UsersGroups.NOTIFICATION_BOT_NAME, isBot: true, botType: 1 }, tx);
      return { userId: bot.id };
    });
  }
}

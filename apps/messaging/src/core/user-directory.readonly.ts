import { Injectable } from '@nestjs/common';
import { PrismaService, isStoredId } from '@teamchat/db';
import { badRequest } from '@teamchat/zulip';

/** What messaging needs to know about a user. */
export interface DirectoryUser {
  id: number;
  realmId: number;
  deliveryEmail: string;
  fullName: string;
  role: number;
  isActive: boolean;
  isBot: boolean;
}

const SELECT = { id: true, realmId: true, deliveryEmail: true, fullName: true, role: true, isActive: true, isBot: true };
const DUMMY_EMAIL = /^user(\d+)@/i;

/**
 * READ-ONLY view of users-groups' `users` table, for resolving recipients and principals on
 * the hot path. Messaging never writes users; anything else goes through users-groups.
 */
@Injectable()
export class UserDirectoryReadonly {
  constructor(private readonly prisma: PrismaService) {}

  /** Active users of the organization by id; an unknown or foreign id fails with its message. */
  async byIds(realmId: number, ids: number[], invalid: (id: number) => string): Promise<DirectoryUser[]> {
    const unique = [...new Set(ids)];
    const inRange = unique.filter(isStoredId);
    const users = await this.prisma.user.findMany({ where: { realmId, id: { in: inRange }, isActive: true }, select: SELECT });
    const found = new Map(users.map((user) => [user.id, user]));
    const missing = unique.find((id) => !found.has(id));
    if (missing !== undefined) throw badRequest(invalid(missing));
    return unique.map((id) => found.get(id)!);
  }

  /**
   * Every active user of the organization, bots included, in id order: who may be told about
   * a channel (Zulip's active_user_ids, with roles to tell guests and administrators apart).
   */
  async activeUsers(realmId: number): Promise<DirectoryUser[]> {
    return this.prisma.user.findMany({ where: { realmId, isActive: true }, select: SELECT, orderBy: { id: 'asc' } });
  }

  /**
   * Active users by email: the real address or Zulip's dummy `user<id>@…` form, case-insensitive.
   */
  async byEmails(realmId: number, emails: string[], invalid: (email: string) => string): Promise<DirectoryUser[]> {
    const result: DirectoryUser[] = [];
    for (const email of [...new Set(emails.map((e) => e.trim()))]) {
      const dummy = DUMMY_EMAIL.exec(email);
      const user = await this.prisma.user.findFirst({
        where: {
          realmId,
          isActive: true,
          OR: [
            { deliveryEmail: { equals: email, mode: 'insensitive' } },
            ...(dummy && isStoredId(Number(dummy[1])) ? [{ id: Number(dummy[1]) }] : []),
          ],
        },
        select: SELECT,
      });
      if (!user) throw badRequest(invalid(email));
      result.push(user);
    }
    return result;
  }
}

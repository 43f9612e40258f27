import { Injectable } from '@nestjs/common';
import { PrismaService, isStoredId, type MultiuseInviteModel, type PreregistrationUserModel } from '@teamchat/db';
import type { Transaction } from './transactions';

/** Zulip's confirmation statuses (confirmation/settings.py). */
export const InviteStatus = { ACTIVE: 0, USED: 1, REVOKED: 2 } as const;

/** What an email invitation or a sign-up confirmation stores. */
export type NewPreregistration = Pick<
  PreregistrationUserModel,
  'realmId' | 'email' | 'referredById' | 'multiuseInviteId' | 'invitedAs' | 'streamIds' | 'groupIds' | 'includeRealmDefaultSubscriptions' | 'notifyReferrerOnJoin' | 'welcomeMessageCustomText' | 'key' | 'expiresAt'
>;

export type NewMultiuseInvite = Pick<
  MultiuseInviteModel,
  'realmId' | 'referredById' | 'invitedAs' | 'streamIds' | 'groupIds' | 'includeRealmDefaultSubscriptions' | 'welcomeMessageCustomText' | 'key' | 'expiresAt'
>;

/** Not expired at `now` (a null expiry never expires). */
const unexpired = (now: Date) => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

/**
 * `preregistration_users` (email invitations and confirmed sign-up addresses) and
 * `multiuse_invites` (reusable links), each named by its confirmation key.
 */
@Injectable()
export class InvitesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Which of these addresses (compared without case) the organization's accounts use, with whether each is active. */
  async accountsWithEmails(realmId: number, emails: string[], tx: Transaction = this.prisma): Promise<{ email: string; isActive: boolean }[]> {
    if (emails.length === 0) return [];
    return tx.$queryRaw<{ email: string; isActive: boolean }[]>`
        SELECT delivery_email AS email, is_active AS "isActive" FROM users
        WHERE realm_id = ${realmId} AND lower(delivery_email) = ANY(${emails.map((email) => email.toLowerCase())}::text[])`;
  }

  /** Email invitations the organization made since `since` (Zulip's invites_sent count for its daily limit). */
  invitationsSince(realmId: number, since: Date, tx: Transaction = this.prisma): Promise<number> {
    return tx.preregistrationUser.count({ where: { realmId, referredById: { not: null }, multiuseInviteId: null, invitedAt: { gte: since } } });
  }

  /** Locks the organization's invitations until the transaction ends, so two requests count the daily limit one after the other. */
  async lockRealmInvitations(realmId: number, tx: Transaction): Promise<void> {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('invitations'), ${realmId})`;
  }

  async createPreregistrations(rows: NewPreregistration[], tx: Transaction): Promise<void> {
    await tx.preregistrationUser.createMany({ data: rows });
  }

  createMultiuse(row: NewMultiuseInvite, tx: Transaction = this.prisma): Promise<MultiuseInviteModel> {
    return tx.multiuseInvite.create({ data: row });
  }

  /** The organization's pending email invitation with this id (not a sign-up confirmation), expired or not. */
  async invitation(realmId: number, id: number): Promise<PreregistrationUserModel | null> {
    if (!isStoredId(id)) return null;
    return this.prisma.preregistrationUser.findFirst({
      where: { id, realmId, referredById: { not: null }, multiuseInviteId: null, status: InviteStatus.ACTIVE },
    });
  }

  /** The organization's reusable link with this id, whatever its status. */
  async multiuse(realmId: number, id: number, tx: Transaction = this.prisma): Promise<MultiuseInviteModel | null> {
    return isStoredId(id) ? tx.multiuseInvite.findFirst({ where: { id, realmId } }) : null;
  }

  /** Unexpired pending email invitations of the organization (of one referrer when given), oldest first. */
  pendingInvitations(realmId: number, referredById: number | undefined, now: Date): Promise<PreregistrationUserModel[]> {
    return this.prisma.preregistrationUser.findMany({
      where: {
        realmId,
        multiuseInviteId: null,
        status: InviteStatus.ACTIVE,
        ...(referredById === undefined ? { referredById: { not: null } } : { referredById }),
        ...unexpired(now),
      },
      orderBy: { id: 'asc' },
    });
  }

  /** Unexpired, unrevoked reusable links of the organization (of one referrer when given), oldest first. */
  activeMultiuse(realmId: number, referredById: number | undefined, now: Date): Promise<MultiuseInviteModel[]> {
    return this.prisma.multiuseInvite.findMany({
      where: { realmId, status: InviteStatus.ACTIVE, ...(referredById === undefined ? {} : { referredById }), ...unexpired(now) },
      orderBy: { id: 'asc' },
    });
  }

  /** Revokes an email invitation: Zulip deletes it with its confirmation. */
  async deleteInvitation(id: number, tx: Transaction = this.prisma): Promise<void> {
    await tx.preregistrationUser.deleteMany({ where: { id } });
  }

  /** Marks a reusable link revoked; false when it already was. */
  async revokeMultiuse(id: number, tx: Transaction = this.prisma): Promise<boolean> {
    const { count } = await tx.multiuseInvite.updateMany({ where: { id, status: InviteStatus.ACTIVE }, data: { status: InviteStatus.REVOKED } });
    return count > 0;
  }


  /** The sign-up a key names, with its organization, if any. */
  byKey(key: string, tx: Transaction = this.prisma): Promise<PreregistrationUserModel | null> {
    return tx.preregistrationUser.findUnique({ where: { key } });
  }

  /** The reusable link a key names, if any. */
  multiuseByKey(key: string): Promise<MultiuseInviteModel | null> {
    return this.prisma.multiuseInvite.findUnique({ where: { key } });
  }

  /** Locks the sign-up until the transaction ends (two forms posted at once make one account). */
  async lockByKey(key: string, tx: Transaction): Promise<PreregistrationUserModel | null> {
    const [row] = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM preregistration_users WHERE key = ${key} FOR UPDATE`;
    return row ? tx.preregistrationUser.findUnique({ where: { id: row.id } }) : null;
  }

  /**
   * The sign-up is used by the account made from it; every other pending sign-up of the same
   * address in the organization is revoked (Zulip's process_new_human_user).
   */
  async markUsed(prereg: { id: number; realmId: number; email: string }, userId: number, tx: Transaction): Promise<void> {
    await tx.preregistrationUser.update({ where: { id: prereg.id }, data: { status: InviteStatus.USED, createdUserId: userId } });
    await tx.$executeRaw`
        UPDATE preregistration_users SET status = ${InviteStatus.REVOKED}
        WHERE realm_id = ${prereg.realmId} AND id <> ${prereg.id} AND lower(email) = lower(${prereg.email}) AND status = ${InviteStatus.ACTIVE}`;
  }
}

import { Injectable } from '@nestjs/common';
import { UsersGroups } from '@teamchat/contracts';
import { PgService, Prisma, PrismaService, statement, type RealmModel } from '@teamchat/db';
import { onConnection, type Transaction } from './transactions';

// Every setting of PATCH /realm's catalogue names a real `realms` column: checked when the service loads.
for (const name of UsersGroups.REALM_SETTING_NAMES) {
  const column = UsersGroups.REALM_SETTINGS[name].column;
  if (!(column in Prisma.RealmScalarFieldEnum)) throw new Error(`realm setting ${name}: no realms column ${column}`);
}

/** Each image's source and version columns. */
const IMAGE_COLUMNS: Record<UsersGroups.RealmImage, [keyof RealmModel, keyof RealmModel]> = {
  icon: ['iconSource', 'iconVersion'],
  logo: ['logoSource', 'logoVersion'],
  night_logo: ['nightLogoSource', 'nightLogoVersion'],
};

/** An allowed email domain (Zulip's RealmDomain). */
export interface RealmDomainRow {
  id: number;
  domain: string;
  allowSubdomains: boolean;
}

/** The organization's allowed email domains, in id order. */
const domainsOfRealm = statement<RealmDomainRow, [realmId: number]>(
  'users_groups.realm_domains_of_realm',
  `SELECT id, domain, allow_subdomains AS "allowSubdomains" FROM realm_domains WHERE realm_id = $1 ORDER BY id`,
);

/**
 * The organization's settings row as PATCH /realm changes it, and `realm_domains` (both
 * users-groups'; cold paths on Prisma, but the list of domains, which POST /register reads, on
 * pg). Reads messaging's `streams` only to check that a channel named by a setting is the
 * organization's (READ-ONLY).
 */
@Injectable()
export class RealmSettingsRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  /** The organization's row, locked until the transaction ends (one settings change at a time). */
  async lock(realmId: number, tx: Transaction): Promise<RealmModel> {
    await tx.$executeRaw`SELECT 1 FROM realms WHERE id = ${realmId} FOR UPDATE`;
    return tx.realm.findUniqueOrThrow({ where: { id: realmId } });
  }

  async update(realmId: number, data: Record<string, unknown>, tx: Transaction = this.prisma): Promise<RealmModel> {
    return tx.realm.update({ where: { id: realmId }, data: data as Prisma.RealmUpdateInput });
  }

  /**
   * Sets the icon's or a logo's source and moves its version on, in one statement (Zulip's
   * do_change_icon_source, do_change_logo_source); the row as now stored.
   */
  async changeImage(realmId: number, image: UsersGroups.RealmImage, source: string, tx: Transaction = this.prisma): Promise<RealmModel> {
    const [sourceColumn, versionColumn] = IMAGE_COLUMNS[image];
    return tx.realm.update({ where: { id: realmId }, data: { [sourceColumn]: source, [versionColumn]: { increment: 1 } } });
  }

  /** READ-ONLY (messaging's `streams`): a channel of the organization, archived or not; null when it has none with this id. */
  async channel(realmId: number, streamId: number): Promise<{ id: number; inviteOnly: boolean } | null> {
    if (!Number.isSafeInteger(streamId) || streamId < 1 || streamId > 2147483647) return null;
    return this.prisma.stream.findFirst({ where: { id: streamId, realmId }, select: { id: true, inviteOnly: true } });
  }

  /** The organization's domains, in id order (inside a Prisma transaction, on its connection). */
  domains(realmId: number, tx?: Transaction): Promise<RealmDomainRow[]> {
    return (tx ? onConnection(tx) : this.pg).run(domainsOfRealm, realmId);
  }

  domain(realmId: number, domain: string, tx: Transaction = this.prisma): Promise<RealmDomainRow | null> {
    return tx.realmDomain.findUnique({ where: { realmId_domain: { realmId, domain } }, select: { id: true, domain: true, allowSubdomains: true } });
  }

  /** Adds a domain; null when the organization has it already. */
  async addDomain(realmId: number, domain: string, allowSubdomains: boolean, tx: Transaction = this.prisma): Promise<RealmDomainRow | null> {
    try {
      // In a transaction, a taken domain aborts it: the caller throws on null.
      return await tx.realmDomain.create({ data: { realmId, domain, allowSubdomains }, select: { id: true, domain: true, allowSubdomains: true } });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') return null;
      throw error;
    }
  }

  /** Changes a domain; false when the organization has no such domain. */
  async setAllowSubdomains(realmId: number, domain: string, allowSubdomains: boolean, tx: Transaction = this.prisma): Promise<boolean> {
    return (await tx.realmDomain.updateMany({ where: { realmId, domain }, data: { allowSubdomains } })).count > 0;
  }

  /** Removes a domain; false when the organization has no such domain. */
  async removeDomain(realmId: number, domain: string, tx: Transaction): Promise<boolean> {
    return (await tx.realmDomain.deleteMany({ where: { realmId, domain } })).count > 0;
  }
}

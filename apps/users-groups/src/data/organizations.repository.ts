import { Injectable } from '@nestjs/common';
import { PgService, Prisma, PrismaService, columnsOf, statement, type RealmModel } from '@teamchat/db';
import type { Transaction } from './transactions';

/** What selecting an organization by host needs of it (see RealmDirectory.toInfo). */
export type RealmRow = Pick<
  RealmModel,
  'id' | 'subdomain' | 'name' | 'description' | 'deactivated' | 'enableSpectatorAccess' | 'passwordAuthEnabled' | 'iconSource' | 'iconVersion'
>;

/** The organization at a subdomain ("" for the root domain). */
const realmBySubdomain = statement<RealmRow, [subdomain: string]>(
  'users_groups.realm_by_subdomain',
  `SELECT id, subdomain, name, description, deactivated, enable_spectator_access AS "enableSpectatorAccess",
     password_auth_enabled AS "passwordAuthEnabled", icon_source AS "iconSource", icon_version AS "iconVersion"
   FROM realms WHERE subdomain = $1`,
);

/**
 * Every column of `realms` (realm-columns.spec holds the rows to Prisma's): read through pg, a
 * whole organization costs a sixteenth of Prisma's CPU (0.4 ms against 6.2 ms a query on this
 * machine), and POST /register reads it every time.
 */
const REALM_COLUMNS = columnsOf(Prisma.RealmScalarFieldEnum);

/** The organization with this id, every column. */
const realmById = statement<RealmModel, [id: number]>('users_groups.realm_by_id', `SELECT ${REALM_COLUMNS} FROM realms WHERE id = $1`);

/** What a new organization is created with (its system groups come from the database's trigger). */
export interface NewRealm {
  subdomain: string;
  name: string;
  enableSpectatorAccess: boolean;
  userSettingsDefaults: object;
}

/**
 * The `realms` table (organizations). The look-up by subdomain (every authentication) and the
 * whole organization by id (every POST /register) go through pg, one named statement each; the
 * rest are cold paths on Prisma. The organization's settings
 * defaults are SettingsRepository's.
 */
@Injectable()
export class OrganizationsRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  async bySubdomain(subdomain: string): Promise<RealmRow | null> {
    return (await this.pg.run(realmBySubdomain, subdomain))[0] ?? null;
  }

  byId(id: number, tx: Transaction = this.prisma): Promise<RealmModel | null> {
    return tx.realm.findUnique({ where: { id } });
  }

  /** An organization known to exist (the caller's own), every column, through pg (POST /register reads it). */
  async byIdOrThrow(id: number): Promise<RealmModel> {
    const [realm] = await this.pg.run(realmById, id);
    if (!realm) throw new Error(`no organization ${id}`);
    return realm;
  }

  /** Every organization, oldest first, with how many accounts it has (the admin command line's list). */
  allWithUserCounts(): Promise<(RealmModel & { _count: { users: number } })[]> {
    return this.prisma.realm.findMany({ orderBy: { id: 'asc' }, include: { _count: { select: { users: true } } } });
  }

  async subdomainTaken(subdomain: string): Promise<boolean> {
    return (await this.prisma.realm.findUnique({ where: { subdomain } })) !== null;
  }

  /** The organization's subdomain, or null when there is no such organization. */
  async subdomainOf(id: number): Promise<string | null> {
    return (await this.prisma.realm.findUnique({ where: { id }, select: { subdomain: true } }))?.subdomain ?? null;
  }

  /** Who may create groups and who may manage every group (the groups holding those permissions). */
  groupManagement(id: number): Promise<Pick<RealmModel, 'canCreateGroupsId' | 'canManageAllGroupsId'>> {
    return this.prisma.realm.findUniqueOrThrow({ where: { id }, select: { canCreateGroupsId: true, canManageAllGroupsId: true } });
  }

  create(realm: NewRealm, tx: Transaction): Promise<RealmModel> {
    return tx.realm.create({ data: realm });
  }
}

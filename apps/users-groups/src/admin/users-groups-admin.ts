import 'reflect-metadata';
import type { AuthUser, RealmInfo } from '@teamchat/contracts';
import { openDatabase, type DatabaseConnections } from '@teamchat/db';
import type { AppConfig } from '@teamchat/platform';
import { configurePasswordRules } from '../auth/passwords';
import { CredentialsRepository } from '../data/credentials.repository';
import { OrganizationsRepository, type RealmRow } from '../data/organizations.repository';
import { Transactions } from '../data/transactions';
import { UsersRepository } from '../data/users.repository';
import { CreateOrganization } from '../organizations/create-organization.use-case';
import { RealmDirectory } from '../realms/realm-directory';
import { AccountCredentials } from '../users/account-credentials.use-case';
import { CreateUser } from '../users/create-user.use-case';

/**
 * users-groups' use cases for the admin command line (tools/admin), built outside Nest on the
 * service's own repositories: the one entry the command line takes into this service.
 */
export class UsersGroupsAdmin {
  private readonly realms: RealmDirectory;
  private readonly organizations: OrganizationsRepository;
  private readonly credentials: AccountCredentials;
  private readonly createUserCase: CreateUser;
  private readonly transactions: Transactions;

  private constructor(
    private readonly db: DatabaseConnections,
    config: AppConfig,
  ) {
    const { prisma, pg } = db;
    configurePasswordRules(config);
    this.organizations = new OrganizationsRepository(prisma, pg);
    const users = new UsersRepository(prisma, pg);
    this.realms = new RealmDirectory(this.organizations, config);
    this.credentials = new AccountCredentials(users, new CredentialsRepository(prisma, pg));
    this.createUserCase = new CreateUser(this.organizations, users);
    this.transactions = new Transactions(prisma, pg);
  }

  static open(config: AppConfig): UsersGroupsAdmin {
    return new UsersGroupsAdmin(openDatabase(config.DATABASE_URL), config);
  }

  /** The organization at `subdomain` ("" for the root domain), or null. */
  async organization(subdomain: string): Promise<(RealmRow & { info: RealmInfo }) | null> {
    const realm = await this.realms.bySubdomain(subdomain);
    return realm && { ...realm, info: this.realms.toInfo(realm) };
  }

  async createOrganization(input: { name: string; subdomain: string; spectatorAccess: boolean; owner: { email: string; fullName: string; password?: string } }) {
    const { realm, owner } = await new CreateOrganization(this.organizations, this.transactions, this.createUserCase).execute(input);
    return {
      organization_id: realm.id,
      subdomain: realm.subdomain,
      url: this.realms.urlOf(realm.subdomain),
      owner_user_id: owner.id,
      owner_email: owner.deliveryEmail,
      api_key: await this.credentials.apiKey(owner.id),
    };
  }

  /** A new account, and the user as the other services' commands name one. */
  async createUser(input: { realmId: number; email: string; fullName: string; role?: number; password?: string; isBot: boolean }) {
    const user = await this.createUserCase.execute(input);
    return { user: this.asAuthUser(user), apiKey: await this.credentials.apiKey(user.id) };
  }

  /** The account with this address in the organization, as the other services' commands name a user. */
  async user(realmId: number, email: string): Promise<AuthUser> {
    return this.asAuthUser(await this.credentials.findByEmail(realmId, email));
  }

  async resetPassword(realmId: number, email: string, password: string) {
    const user = await this.credentials.findByEmail(realmId, email);
    await this.credentials.setPassword(user.id, password);
    return { user_id: user.id, email: user.deliveryEmail, password: 'updated' };
  }

  async apiKey(realmId: number, email: string, rotate: boolean) {
    const user = await this.credentials.findByEmail(realmId, email);
    const apiKey = rotate ? await this.credentials.rotateApiKey(user.id) : await this.credentials.apiKey(user.id);
    return { user_id: user.id, email: user.deliveryEmail, api_key: apiKey };
  }

  async listOrganizations() {
    return (await this.organizations.allWithUserCounts()).map((realm) => ({
      organization_id: realm.id,
      subdomain: realm.subdomain,
      name: realm.name,
      url: this.realms.urlOf(realm.subdomain),
      users: realm._count.users,
      deactivated: realm.deactivated,
    }));
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  private asAuthUser(user: { id: number; realmId: number; deliveryEmail: string; fullName: string; role: number; isBot: boolean }): AuthUser {
    return {
      id: user.id,
      realmId: user.realmId,
      email: user.deliveryEmail,
      deliveryEmail: user.deliveryEmail,
      fullName: user.fullName,
      role: user.role,
      isBot: user.isBot,
    };
  }
}

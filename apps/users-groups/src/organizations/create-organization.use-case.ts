import { Injectable } from '@nestjs/common';
import type { RealmModel, UserModel } from '@teamchat/db';
import { Role, badRequest } from '@teamchat/zulip';
import { OrganizationsRepository } from '../data/organizations.repository';
import { Transactions } from '../data/transactions';
import { CreateUser } from '../users/create-user.use-case';
import { builtinSettingDefaults } from '@teamchat/contracts';

export interface NewOrganization {
  /** "" for the root domain. */
  subdomain: string;
  name: string;
  owner: { email: string; fullName: string; password?: string };
  spectatorAccess?: boolean;
}

/** Zulip's subdomain rule: lowercase letters, digits and inner hyphens, at most 40. */
const SUBDOMAIN_PATTERN = /^(|[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?)$/;
const RESERVED_SUBDOMAINS = new Set(['www', 'api', 'admin', 'static', 'status', 'help', 'mail', 'ftp', 'chat']);

/** Creates an organization with its first owner, in one transaction. */
@Injectable()
export class CreateOrganization {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly transactions: Transactions,
    private readonly createUser: CreateUser,
  ) {}

  async execute(input: NewOrganization): Promise<{ realm: RealmModel; owner: UserModel }> {
    const subdomain = input.subdomain.trim().toLowerCase();
    if (!SUBDOMAIN_PATTERN.test(subdomain) || RESERVED_SUBDOMAINS.has(subdomain)) {
      throw badRequest(`Subdomain '${input.subdomain}' is not allowed`);
    }
    const name = input.name.trim();
    if (!name || name.length > 40) throw badRequest('Organization name must be 1 to 40 characters');
    if (await this.organizations.subdomainTaken(subdomain)) {
      throw badRequest(`Subdomain '${subdomain || '(root)'}' is already in use`);
    }

    return this.transactions.run(async (tx) => {
      const realm = await this.organizations.create(
        { subdomain, name, enableSpectatorAccess: input.spectatorAccess ?? false, userSettingsDefaults: builtinSettingDefaults() },
        tx,
      );
      const owner = await this.createUser.execute(
        { realmId: realm.id, email: input.owner.email, fullName: input.owner.fullName, password: input.owner.password, role: Role.OWNER },
        tx,
      );
      return { realm, owner };
    });
  }
}

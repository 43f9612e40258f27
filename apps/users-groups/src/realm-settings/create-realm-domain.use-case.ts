import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { badRequest, isOwnerRole, mustBeOwner, type DecodedParams } from '@teamchat/zulip';
import { RealmSettingsRepository } from '../data/realm-settings.repository';
import { UsersRepository } from '../data/users.repository';
import { domainProblem, realmDomainsEvent, toRealmDomainRecord } from './realm-domain-rules';

type Params = DecodedParams<typeof UsersGroups.createRealmDomainParams>;

/**
 * POST /realm/domains (create_realm_domain, do_add_realm_domain): owners add a domain, stripped
 * and lower-cased, checked as Zulip's validate_domain; `realm_domains` add to every active user.
 */
@Injectable()
export class CreateRealmDomain {
  constructor(
    private readonly settings: RealmSettingsRepository,
    private readonly users: UsersRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<{ new_domain: [number, string] }> {
    if (!isOwnerRole(user.role)) throw mustBeOwner();
    const domain = params.domain.trim().toLowerCase();
    const problem = domainProblem(domain);
    if (problem) throw badRequest(`Invalid domain: ${problem}`);
    const everyone = await this.users.activeIdsOfRealm(realm.id);
    return this.outbox.runCold(async (tx) => {
      const row = await this.settings.addDomain(realm.id, domain, params.allow_subdomains, tx);
      if (!row) throw badRequest(`The domain ${domain} is already a part of your organization.`);
      return {
        value: { new_domain: [row.id, row.domain] as [number, string] },
        events: [realmDomainsEvent(realm.id, everyone, { op: 'add', realm_domain: toRealmDomainRecord(row) })],
      };
    }, requestId);
  }
}

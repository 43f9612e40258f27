import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { isOwnerRole, mustBeOwner, type DecodedParams } from '@teamchat/zulip';
import { RealmSettingsRepository } from '../data/realm-settings.repository';
import { UsersRepository } from '../data/users.repository';
import { noSuchDomain, realmDomainsEvent } from './realm-domain-rules';

type Params = DecodedParams<(typeof UsersGroups.updateRealmDomain)['params']>;

/** PATCH /realm/domains/{domain} (patch_realm_domain, do_change_realm_domain): owners; `realm_domains` change to every active user. */
@Injectable()
export class UpdateRealmDomain {
  constructor(
    private readonly settings: RealmSettingsRepository,
    private readonly users: UsersRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    if (!isOwnerRole(user.role)) throw mustBeOwner();
    const everyone = await this.users.activeIdsOfRealm(realm.id);
    return this.outbox.runCold(async (tx) => {
      if (!(await this.settings.setAllowSubdomains(realm.id, params.domain, params.allow_subdomains, tx))) throw noSuchDomain(params.domain);
      return {
        value: {},
        events: [realmDomainsEvent(realm.id, everyone, { op: 'change', realm_domain: { domain: params.domain, allow_subdomains: params.allow_subdomains } })],
      };
    }, requestId);
  }
}

import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { EventBus } from '@teamchat/platform';
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
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    if (!isOwnerRole(user.role)) throw mustBeOwner();
    if (!(await this.settings.setAllowSubdomains(realm.id, params.domain, params.allow_subdomains))) throw noSuchDomain(params.domain);
    const everyone = await this.users.activeIdsOfRealm(realm.id);
    await this.events.publishAll(
      [realmDomainsEvent(realm.id, everyone, { op: 'change', realm_domain: { domain: params.domain, allow_subdomains: params.allow_subdomains } })],
      requestId,
    );
    return {};
  }
}

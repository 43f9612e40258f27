import { Injectable } from '@nestjs/common';
import { UsersGroups, type ClientEvent, type EventDef, type UserCommand } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { isOwnerRole, mustBeOwner, type DecodedParams } from '@teamchat/zulip';
import { RealmSettingsRepository } from '../data/realm-settings.repository';
import { UsersRepository } from '../data/users.repository';
import { noSuchDomain, realmDomainsEvent } from './realm-domain-rules';

type Params = DecodedParams<(typeof UsersGroups.deleteRealmDomain)['params']>;

/**
 * DELETE /realm/domains/{domain} (delete_realm_domain, do_remove_realm_domain): owners. Removing
 * the last domain of an organization that restricts addresses to its domains lifts the
 * restriction (emails_restricted_to_domains false, announced first), then `realm_domains` remove.
 */
@Injectable()
export class DeleteRealmDomain {
  constructor(
    private readonly settings: RealmSettingsRepository,
    private readonly users: UsersRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    if (!isOwnerRole(user.role)) throw mustBeOwner();
    const everyone = await this.users.activeIdsOfRealm(realm.id);
    const restriction = {
      def: UsersGroups.RealmSettingsEvents.realmChanged as EventDef<ClientEvent>,
      payload: { realmId: realm.id, users: everyone, event: { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false } },
    };
    const removed = realmDomainsEvent(realm.id, everyone, { op: 'remove', domain: params.domain });
    return this.outbox.runCold(async (tx) => {
      const row = await this.settings.lock(realm.id, tx);
      if (!(await this.settings.removeDomain(realm.id, params.domain, tx))) throw noSuchDomain(params.domain);
      // The last domain gone: the restriction to domains is lifted with it.
      if (!row.emailsRestrictedToDomains || (await this.settings.domains(realm.id, tx)).length > 0) return { value: {}, events: [removed] };
      await this.settings.update(realm.id, { emailsRestrictedToDomains: false }, tx);
      return { value: {}, events: [restriction, removed] };
    }, requestId);
  }
}

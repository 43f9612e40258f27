import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { RealmSettingsRepository } from '../data/realm-settings.repository';
import { toRealmDomainRecord } from './realm-domain-rules';

/** GET /realm/domains (zerver/views/realm_domains.py list_realm_domains): the allowed email domains, for any user. */
@Injectable()
export class ListRealmDomains {
  constructor(private readonly settings: RealmSettingsRepository) {}

  async execute({ realm }: UserCommand<Record<string, never>>): Promise<{ domains: UsersGroups.RealmDomainRecord[] }> {
    return { domains: (await this.settings.domains(realm.id)).map(toRealmDomainRecord) };
  }
}

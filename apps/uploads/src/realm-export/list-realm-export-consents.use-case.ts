import { Injectable } from '@nestjs/common';
import type { UserCommand } from '@teamchat/contracts';
import { isAdminRole, mustBeAdmin } from '@teamchat/zulip';
import { OrganizationDataReadonlyRepository } from '../data/organization-data.readonly.repository';
import { privacyOf } from './export-consent';

/** GET /export/realm/consents (get_users_export_consents): each active human user's allow_private_data_export, for administrators. */
@Injectable()
export class ListRealmExportConsents {
  constructor(private readonly organization: OrganizationDataReadonlyRepository) {}

  async execute({ realm, user }: UserCommand<Record<string, never>>): Promise<{ export_consents: { user_id: number; consented: boolean }[] }> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const users = await this.organization.users(realm.id);
    return {
      export_consents: users.filter((u) => u.isActive && !u.isBot).map((u) => ({ user_id: u.id, consented: privacyOf(u).consents })),
    };
  }
}

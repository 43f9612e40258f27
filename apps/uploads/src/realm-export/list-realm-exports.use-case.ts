import { Injectable } from '@nestjs/common';
import type { Uploads, UserCommand } from '@teamchat/contracts';
import { isAdminRole, mustBeAdmin } from '@teamchat/zulip';
import { RealmExportNotices } from './realm-export-notices';

/** GET /export/realm (get_realm_exports): the organization's exports, oldest first, for administrators. */
@Injectable()
export class ListRealmExports {
  constructor(private readonly notices: RealmExportNotices) {}

  async execute({ realm, user }: UserCommand<Record<string, never>>): Promise<{ exports: Uploads.RealmExportRecord[] }> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    return { exports: await this.notices.list(realm.id, realm.url) };
  }
}

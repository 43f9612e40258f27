import { Inject, Injectable } from '@nestjs/common';
import { Uploads, type UserCommand } from '@teamchat/contracts';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { badRequest, isAdminRole, mustBeAdmin } from '@teamchat/zulip';
import { OrganizationDataReadonlyRepository } from '../data/organization-data.readonly.repository';
import { RealmExportsRepository } from '../data/realm-exports.repository';
import { consentExportUsable, publicExportUsable } from './export-consent';
import { RealmExportNotices } from './realm-export-notices';
import { RealmExportQueue } from './realm-export.queue';

/** Zulip's EXPORT_LIMIT: at most 5 exports an organization a week. */
const EXPORT_LIMIT = { count: 5, days: 7 };
const MiB = 1024 * 1024;

/**
 * POST /export/realm (zerver/views/realm_export.py export_realm): administrators only; the
 * weekly limit, Zulip's size limits (exportable messages, upload space), and an export that
 * would leave the organization without a usable owner are refused, in Zulip's order and words.
 * Then the export is recorded, the administrators hear of it (pending) and the worker writes it.
 */
@Injectable()
export class RequestRealmExport {
  constructor(
    private readonly exports: RealmExportsRepository,
    private readonly organization: OrganizationDataReadonlyRepository,
    private readonly notices: RealmExportNotices,
    private readonly queue: RealmExportQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<{ export_type: number }>): Promise<{ id: number }> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const type = params.export_type;
    if (type !== Uploads.EXPORT_PUBLIC && type !== Uploads.EXPORT_FULL_WITH_CONSENT) throw badRequest('Invalid export_type');
    if ((await this.exports.recentCount(realm.id, EXPORT_LIMIT.days)) >= EXPORT_LIMIT.count) throw badRequest('Exceeded rate limit.');

    const support = this.config.ZULIP_ADMINISTRATOR;
    const [messages, space] = await Promise.all([
      this.organization.messageCount(realm.id, type === Uploads.EXPORT_PUBLIC),
      this.organization.uploadSpace(realm.id),
    ]);
    if (messages > this.config.REALM_EXPORT_MAX_MESSAGES || space > this.config.REALM_EXPORT_MAX_UPLOAD_MIB * MiB) {
      throw badRequest(`Please request a manual export from ${support}.`);
    }
    const users = await this.organization.users(realm.id);
    if (type === Uploads.EXPORT_FULL_WITH_CONSENT && !consentExportUsable(users)) {
      throw badRequest(`Make sure at least one Organization Owner is consenting to the export or contact ${support} for help.`);
    }
    if (type === Uploads.EXPORT_PUBLIC && !publicExportUsable(users)) {
      throw badRequest(`Make sure at least one Organization Owner allows other Administrators to see their email address or contact ${support} for help`);
    }

    const id = await this.notices.change(
      realm.id,
      realm.url,
      async (tx) => {
        const requested = await this.exports.request(realm.id, user.id, type, EXPORT_LIMIT, tx);
        if (requested === null) throw badRequest('Exceeded rate limit.');
        return requested;
      },
      requestId,
    );
    await this.queue.add({ exportId: id, realmId: realm.id, realmUrl: realm.url });
    return { id };
  }
}

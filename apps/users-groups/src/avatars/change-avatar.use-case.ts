import { Inject, Injectable } from '@nestjs/common';
import type { UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { avatarUrl, avatarUrls, badRequest, isAdminRole } from '@teamchat/zulip';
import { UsersRepository } from '../data/users.repository';
import { UserAccess } from '../users/user-access';
import { realmUserUpdate } from '../users/user-admin-events';

/**
 * The avatar part of POST and DELETE /users/me/avatar (zerver/views/user_settings.py
 * set_avatar_backend, delete_avatar_backend), for the uploads service, which stores or removes
 * the images: who may change their avatar (administrators always; others unless the server's
 * AVATAR_CHANGES_DISABLED), then the new source with the version moved on
 * (do_change_avatar_fields), announced to everyone as a `realm_user` update with both URLs.
 */
@Injectable()
export class ChangeAvatar {
  constructor(
    private readonly users: UsersRepository,
    private readonly outbox: EventOutbox,
    private readonly access: UserAccess,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ realm, user, source, dryRun, requestId }: UsersGroups.ChangeAvatarPayload): Promise<{ avatar_url: string }> {
    // Zulip's avatar_changes_disabled: the server's setting (the organization's has no column yet).
    if (this.config.AVATAR_CHANGES_DISABLED && !isAdminRole(user.role)) throw badRequest('Avatar changes are disabled in this organization.');
    if (dryRun) return { avatar_url: '' };
    const recipients = (await this.access.audienceOf(realm.id, user.id)).map((viewer) => viewer.id);
    return this.outbox.run(async (tx) => {
      const row = await this.users.changeAvatarSource(user.id, source, tx);
      return {
        value: { avatar_url: avatarUrl(row, { realmId: realm.id })! },
        events: [realmUserUpdate(realm.id, recipients, row.id, { avatar_source: row.avatarSource, ...avatarUrls(row, realm.id), avatar_version: row.avatarVersion })],
      };
    }, requestId);
  }
}

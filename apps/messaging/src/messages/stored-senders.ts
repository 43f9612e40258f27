import { Inject, Injectable } from '@nestjs/common';
import type { AuthUser, RealmRef } from '@teamchat/contracts';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { ZulipError, badRequest } from '@teamchat/zulip';
import { MemberProfilesReadonlyRepository } from '../data/member-profiles.readonly.repository';

/**
 * Who acts when no request does (the scheduler's deliveries, a reminder's text): a stored user
 * and their organization as a request would bring them. The user and the organization must
 * still be active (Zulip's UserDeactivatedError, RealmDeactivatedError).
 */
@Injectable()
export class StoredSenders {
  private readonly root: URL;

  constructor(
    private readonly people: MemberProfilesReadonlyRepository,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'EXTERNAL_URL'>,
  ) {
    this.root = new URL(config.EXTERNAL_URL);
  }

  async identity(realmId: number, userId: number): Promise<{ realm: RealmRef; user: AuthUser }> {
    const sender = await this.people.storedSender(realmId, userId);
    if (!sender) throw badRequest('Invalid user ID');
    if (sender.realmDeactivated) throw new ZulipError('REALM_DEACTIVATED', 'This organization has been deactivated');
    if (!sender.isActive) throw new ZulipError('USER_DEACTIVATED', 'Account is deactivated');
    const host = sender.subdomain ? `${sender.subdomain}.${this.root.hostname}` : this.root.hostname;
    const realm: RealmRef = {
      id: realmId,
      subdomain: sender.subdomain,
      name: sender.realmName,
      host,
      url: `${this.root.protocol}//${host}${this.root.port ? `:${this.root.port}` : ''}`,
    };
    const user: AuthUser = {
      id: sender.id,
      realmId,
      email: sender.isBot ? sender.deliveryEmail : `user${sender.id}@${host}`,
      deliveryEmail: sender.deliveryEmail,
      fullName: sender.fullName,
      role: sender.role,
      isBot: sender.isBot,
    };
    return { realm, user };
  }
}

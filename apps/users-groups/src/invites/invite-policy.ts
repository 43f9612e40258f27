import { Injectable } from '@nestjs/common';
import { OrganizationsRepository } from '../data/organizations.repository';
import { RealmSettingsRepository } from '../data/realm-settings.repository';
import { RealmGroupSettings } from '../realm-settings/realm-group-settings';

/** One of the organization's allowed address domains (Zulip's RealmDomain). */
export interface RealmDomain {
  domain: string;
  allowSubdomains: boolean;
}

/** The organization's settings that decide who may invite and who may join (Zulip's Realm fields). */
export interface InvitePolicyOf {
  /** Sign-up needs an invitation (Zulip's invite_required; its default: true). */
  inviteRequired: boolean;
  /** Only addresses in `realmDomains` may join (emails_restricted_to_domains; default false). */
  emailsRestrictedToDomains: boolean;
  /** Addresses at disposable-mail domains may not join (disallow_disposable_email_addresses; default true). */
  disallowDisposableEmailAddresses: boolean;
  realmDomains: RealmDomain[];
  /** The group whose members may send email invitations (can_invite_users_group; default role:members). */
  canInviteUsersGroupId: number | null;
  /** The group whose members may create reusable links (create_multiuse_invite_group; default role:administrators). */
  createMultiuseInviteGroupId: number | null;
}

/**
 * Where invitations and sign-up read the organization's policy: its stored settings (PATCH
 * /realm's catalogue) and allowed domains.
 */
@Injectable()
export class InvitePolicy {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly realmSettings: RealmSettingsRepository,
    private readonly settingGroups: RealmGroupSettings,
  ) {}

  async of(realmId: number): Promise<InvitePolicyOf> {
    const [realm, domains, groups] = await Promise.all([
      this.organizations.byIdOrThrow(realmId),
      this.realmSettings.domains(realmId),
      this.settingGroups.groupIds(realmId, ['can_invite_users_group', 'create_multiuse_invite_group']),
    ]);
    return {
      inviteRequired: realm.inviteRequired,
      emailsRestrictedToDomains: realm.emailsRestrictedToDomains,
      disallowDisposableEmailAddresses: realm.disallowDisposableEmailAddresses,
      realmDomains: domains.map(({ domain, allowSubdomains }) => ({ domain, allowSubdomains })),
      canInviteUsersGroupId: groups.can_invite_users_group,
      createMultiuseInviteGroupId: groups.create_multiuse_invite_group,
    };
  }
}

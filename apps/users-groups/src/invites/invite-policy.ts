import { Injectable } from '@nestjs/common';
import { UserGroupsRepository } from '../data/user-groups.repository';

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
 * Where invitations and sign-up read the organization's policy: the one place to change when the
 * realm settings exist.
 *
 * FOR NOW this answers Zulip's defaults for every organization. Once `realms` has the columns
 * invite_required, emails_restricted_to_domains, disallow_disposable_email_addresses,
 * can_invite_users_group(_id), create_multiuse_invite_group(_id) and the `realm_domains` table
 * exists (the realm-settings work), `of` will read them instead; nothing else needs to change.
 */
@Injectable()
export class InvitePolicy {
  constructor(private readonly groups: UserGroupsRepository) {}

  async of(realmId: number): Promise<InvitePolicyOf> {
    const systemGroups = await this.groups.systemGroupIds(realmId);
    return {
      inviteRequired: true,
      emailsRestrictedToDomains: false,
      disallowDisposableEmailAddresses: true,
      realmDomains: [],
      canInviteUsersGroupId: systemGroups.get('role:members') ?? null,
      createMultiuseInviteGroupId: systemGroups.get('role:administrators') ?? null,
    };
  }
}

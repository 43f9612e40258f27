import { Injectable } from '@nestjs/common';
import { UsersGroups, type UserCommand } from '@teamchat/contracts';
import type { DecodedParams } from '@teamchat/zulip';
import { InvitesRepository } from '../data/invites.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { checkMemberOrAdmin } from '../groups/member-or-admin';
import { InviteAccess } from './invite-access';
import { InvitePolicy } from './invite-policy';
import { checkInviteAs, checkInviteAsValue, expiryOf, generateConfirmationKey, invitationWelcomeText } from './invite-rules';
import { InvitesChanged } from './invites-changed';

type Params = DecodedParams<typeof UsersGroups.createMultiuseInviteParams>;

/**
 * POST /invites/multiuse (zerver/views/invite.py generate_multiuse_invite_backend): members and
 * administrators in create_multiuse_invite_group (default role:administrators), the role
 * checked as for email invitations, then the channels and groups. Answers the link
 * `<organization URL>/join/<key>/`; `invites_changed` to the administrators and the creator.
 * A `welcome_message_custom_text` (administrators only, checked after the channels and groups)
 * goes to the accounts made from the link.
 */
@Injectable()
export class CreateMultiuseInvite {
  constructor(
    private readonly access: InviteAccess,
    private readonly policies: InvitePolicy,
    private readonly invites: InvitesRepository,
    private readonly realms: RealmDirectory,
    private readonly changed: InvitesChanged,
  ) {}

  async execute({ realm, user: caller, params, requestId }: UserCommand<Params>): Promise<{ invite_link: string }> {
    // Zulip's order: the decorator (no guests, no bots), the parameters, then the permissions.
    checkMemberOrAdmin(caller);
    checkInviteAsValue(params.invite_as);
    const policy = await this.policies.of(realm.id);
    await this.access.checkMay(caller, policy.createMultiuseInviteGroupId);
    checkInviteAs(params.invite_as, caller);
    const streamIds = [...new Set(params.stream_ids)];
    const groupIds = [...new Set(params.group_ids ?? [])];
    await this.access.checkChannelsAndGroups(caller, streamIds, groupIds);
    const welcomeMessageCustomText = invitationWelcomeText(caller, params.welcome_message_custom_text);
    const invite = await this.changed.change(
      realm.id,
      caller.id,
      (tx) =>
        this.invites.createMultiuse(
          {
            realmId: realm.id,
            referredById: caller.id,
            invitedAs: params.invite_as,
            streamIds,
            groupIds,
            includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
            welcomeMessageCustomText,
            key: generateConfirmationKey(),
            expiresAt: expiryOf(params.invite_expires_in_minutes),
          },
          tx,
        ),
      requestId,
    );
    return { invite_link: `${this.realms.urlOf(realm.subdomain)}${UsersGroups.JOIN_PATH}/${invite.key}/` };
  }
}

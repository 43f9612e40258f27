import { Injectable } from '@nestjs/common';
import type { UsersGroups } from '@teamchat/contracts';
import type { MultiuseInviteModel } from '@teamchat/db';
import { ZulipError } from '@teamchat/zulip';
import type { RealmRow } from '../data/organizations.repository';
import { InvitesRepository } from '../data/invites.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { InvitePolicy } from './invite-policy';
import { checkActiveMultiuse, checkKeyShape } from './signup-links';

/** Zulip's page for sign-up where an invitation is required (zerver/views/registration.py). */
export const INVITATION_REQUIRED = 'Sign up for this organization requires an invitation.';

/**
 * GET /join/<key>/ and GET /accounts/register/ (Zulip's maybe_send_to_registration and
 * accounts_home): the page where an address is entered. A reusable link must be this
 * organization's, active and unexpired; without one, sign-up must be open (the policy's
 * invite_required false).
 */
@Injectable()
export class SignupStartCheck {
  constructor(
    private readonly realms: RealmDirectory,
    private readonly invites: InvitesRepository,
    private readonly policies: InvitePolicy,
  ) {}

  execute({ host, multiuseKey }: { host: string; multiuseKey?: string }): Promise<UsersGroups.SignupStart> {
    return this.check(host, multiuseKey).then(({ realm }) => ({ realmName: realm.name }));
  }

  /** The organization and, for a reusable link, the link; refused as the page would refuse it. */
  async check(host: string, multiuseKey: string | undefined): Promise<{ realm: RealmRow; multiuse: MultiuseInviteModel | null }> {
    const realm = await this.realms.resolve(host);
    if (multiuseKey !== undefined) {
      checkKeyShape(multiuseKey);
      const multiuse = await this.invites.multiuseByKey(multiuseKey);
      checkActiveMultiuse(multiuse, realm.id);
      return { realm, multiuse };
    }
    if ((await this.policies.of(realm.id)).inviteRequired) throw new ZulipError('BAD_REQUEST', INVITATION_REQUIRED, {}, 403);
    return { realm, multiuse: null };
  }
}

import { Injectable } from '@nestjs/common';
import type { UsersGroups } from '@teamchat/contracts';
import { badRequest } from '@teamchat/zulip';
import { InvitesRepository } from '../data/invites.repository';
import { UsersRepository } from '../data/users.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { checkKeyShape, checkPendingSignup } from './signup-links';

/**
 * GET /accounts/do_confirm/<key> (Zulip's check_prereg_key_and_redirect, then the registration
 * form): the address a pending sign-up of this organization is for, to show the form that asks
 * for a full name and a password. Nothing changes.
 */
@Injectable()
export class ShowRegistrationForm {
  constructor(
    private readonly realms: RealmDirectory,
    private readonly invites: InvitesRepository,
    private readonly users: UsersRepository,
  ) {}

  async execute({ host, key }: { host: string; key: string }): Promise<UsersGroups.RegistrationForm> {
    const realm = await this.realms.resolve(host);
    checkKeyShape(key);
    const prereg = await this.invites.byKey(key);
    const multiuse = prereg?.multiuseInviteId ? await this.invites.multiuse(realm.id, prereg.multiuseInviteId) : null;
    checkPendingSignup(prereg, realm.id, multiuse);
    const holder = await this.users.emailHolder(realm.id, prereg.email);
    if (holder) throw badRequest(holder.isActive ? 'Already has an account.' : 'Account has been deactivated.');
    return { realmName: realm.name, realmUrl: this.realms.urlOf(realm.subdomain), email: prereg.email };
  }
}

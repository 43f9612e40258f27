import { Injectable } from '@nestjs/common';
import { EmailVisibility, apiEmail, canSeeDeliveryEmail, resolveSettings, type ApiCommand, type AuthUser, type RealmRef, type UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { LIMITS, Role, avatarUrls, badRequest, isRole, type DecodedParams } from '@teamchat/zulip';
import { ProfileFieldsRepository } from '../data/profile-fields.repository';
import { UserGroupsRepository } from '../data/user-groups.repository';
import { UsersRepository, type UserRow } from '../data/users.repository';
import { UserAccess } from './user-access';
import { RealmDirectory } from '../realms/realm-directory';
import { checkFullName } from './full-name';
import { applyProfileData, checkProfileData, type ProfileWrite } from './profile-data';
import { groupMembershipEvents } from './system-group-events';
import { accessChanged, ownerRequired, realmUserUpdate, requireAdministrator, type PublishedEvent } from './user-admin-events';
import { UserLookup, type AccessRules } from './user-lookup';

type ByIdParams = DecodedParams<typeof UsersGroups.updateUserParams>;
type ByEmailParams = DecodedParams<typeof UsersGroups.updateUserByEmailParams>;
type Changes = Omit<ByIdParams, 'user_id'>;

/** Administrators may change deactivated accounts and bots too (Zulip's update_user_backend). */
const ADMINISTER: AccessRules = { allowDeactivated: true, allowBots: true };

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const newEmailError = (reason: string) => badRequest(`New email value error: ${reason}`);

/**
 * PATCH /users/{user_id} and PATCH /users/{email} (zerver/views/users.py update_user_backend):
 * an administrator changes another account's full name, role, custom profile fields or (an
 * owner holding can_change_user_emails) real address. Everything is checked before anything is
 * written, and written in one transaction: a refused request changes nothing. Each change is
 * announced as Zulip announces it; a role change also moves the user between system groups.
 */
@Injectable()
export class UpdateUser {
  constructor(
    private readonly users: UsersRepository,
    private readonly groups: UserGroupsRepository,
    private readonly profileFields: ProfileFieldsRepository,
    private readonly lookup: UserLookup,
    private readonly realms: RealmDirectory,
    private readonly outbox: EventOutbox,
    private readonly access: UserAccess,
  ) {}

  async byId({ realm, user, params, requestId }: ApiCommand<ByIdParams>): Promise<Record<string, never>> {
    requireAdministrator(user);
    const { user_id: userId, ...changes } = params;
    checkRoleValue(changes.role);
    const target = await this.lookup.byId(realm, userId, ADMINISTER);
    return this.update(realm, user as AuthUser, target, changes, requestId);
  }

  async byEmail({ realm, user, params, requestId }: ApiCommand<ByEmailParams>): Promise<Record<string, never>> {
    requireAdministrator(user);
    const { email, ...changes } = params;
    checkRoleValue(changes.role);
    const target = await this.lookup.byEmail(realm, user as AuthUser, email, ADMINISTER);
    return this.update(realm, user as AuthUser, target, changes, requestId);
  }

  private async update(realm: RealmRef, caller: AuthUser, target: UserRow, changes: Changes, requestId: string): Promise<Record<string, never>> {
    // The checks, in Zulip's order.
    if (changes.new_email !== undefined && !(caller.role === Role.OWNER && (await this.mayChangeEmails(caller.id)))) {
      throw badRequest('User not authorized to change user emails');
    }
    const role = changes.role !== undefined && changes.role !== target.role ? changes.role : undefined;
    if (role !== undefined) checkMayGrant(caller, target.role, role);
    // A blank name is no change (the administrator's form sends the field whatever happened).
    const raw = changes.full_name;
    const fullName = raw !== undefined && raw !== target.fullName && raw.trim() !== '' ? checkFullName(raw) : undefined;
    const profile: ProfileWrite[] = changes.profile_data ? await checkProfileData(this.profileFields, this.users, realm.id, changes.profile_data) : [];
    const newEmail = changes.new_email !== undefined && changes.new_email !== target.deliveryEmail ? await this.checkNewEmail(realm, target, changes.new_email) : undefined;

    return this.outbox.run(async (tx) => {
      // Owners first, then the user (always in this order, so two changes cannot deadlock).
      const owners = role !== undefined ? await this.users.lockHumanOwners(realm.id, tx) : [];
      const row = await this.users.lock(target.id, tx);
      const events: PublishedEvent[] = [];
      const later: ((recipients: { id: number; role: number }[]) => PublishedEvent[])[] = [];
      // What a gateway remembers of the user's credentials (role, name, address) went stale.
      let credentialsChanged = false;

      if (role !== undefined && role !== row.role) {
        checkMayGrant(caller, row.role, role);
        if (row.role === Role.OWNER && isOnlyOwner(row, owners)) {
          throw badRequest('The owner permission cannot be removed from the only organization owner.');
        }
        const before = await this.groups.directNamedGroupsOf(row.id, tx);
        await this.users.setRole(row.id, role, tx);
        const after = await this.groups.directNamedGroupsOf(row.id, tx);
        credentialsChanged = true;
        later.push((recipients) => [
          realmUserUpdate(realm.id, ids(recipients), row.id, { role }),
          ...groupMembershipEvents(realm.id, row.id, before, after, ids(recipients)),
        ]);
      }
      if (fullName !== undefined && fullName !== row.fullName) {
        await this.users.setFullName(row.id, fullName, tx);
        credentialsChanged = true;
        later.push((recipients) => [realmUserUpdate(realm.id, ids(recipients), row.id, { full_name: fullName })]);
      }
      const fieldChanges = await applyProfileData(this.profileFields, row.id, profile, tx);
      later.push((recipients) => fieldChanges.map((field) => realmUserUpdate(realm.id, ids(recipients), row.id, { custom_profile_field: field })));
      if (newEmail !== undefined && newEmail !== row.deliveryEmail) {
        if (!(await this.users.trySetDeliveryEmail(row.id, newEmail, tx))) throw newEmailError('Already has an account.');
        credentialsChanged = true;
        later.push((recipients) => this.addressEvents(realm, { ...row, deliveryEmail: newEmail }, recipients));
      }

      const recipients = await this.access.audienceOf(realm.id, row.id, tx);
      for (const make of later) events.push(...make(recipients));
      if (credentialsChanged) events.push(accessChanged(realm.id, row.id, false));
      return { value: {}, events };
    }, requestId);
  }

  private mayChangeEmails(userId: number): Promise<boolean> {
    return this.users.canChangeUserEmails(userId);
  }

  /** Zulip's validate_email_not_already_in_realm (not verbose), after a check of the address itself. */
  private async checkNewEmail(realm: RealmRef, target: UserRow, email: string): Promise<string> {
    if (!EMAIL_PATTERN.test(email) || email.length > LIMITS.maxEmailLength) throw newEmailError('Invalid address.');
    const holder = (await this.users.withDeliveryEmail(realm.id, email)).find((user) => user.id !== target.id);
    if (holder) throw newEmailError(holder.isActive ? 'Already has an account.' : 'Account has been deactivated.');
    return email;
  }

  /**
   * A new real address (zerver/actions/user_settings.py do_change_user_delivery_email): its new
   * value to those who may see it, the Gravatar that follows the address, and the API address
   * to everyone when it is the real one.
   */
  private addressEvents(realm: RealmRef, user: UserRow, recipients: { id: number; role: number }[]): PublishedEvent[] {
    const visibility = user.isBot ? EmailVisibility.EVERYONE : resolveSettings(user.settings).email_address_visibility;
    const seeing = recipients.filter((viewer) => canSeeDeliveryEmail(viewer, user.id, visibility));
    const everyone = ids(recipients);
    const events: PublishedEvent[] = [];
    if (seeing.length > 0) events.push(realmUserUpdate(realm.id, ids(seeing), user.id, { delivery_email: user.deliveryEmail }));
    if (user.avatarSource === 'G') {
      events.push(
        realmUserUpdate(realm.id, everyone, user.id, {
          avatar_source: user.avatarSource,
          ...avatarUrls(user, realm.id),
          avatar_version: user.avatarVersion,
        }),
      );
    }
    if (visibility === EmailVisibility.EVERYONE) {
      events.push(realmUserUpdate(realm.id, everyone, user.id, { new_email: apiEmail(user, visibility, this.realms.hostnameOf(realm.subdomain)) }));
    }
    return events;
  }
}

const ids = (users: { id: number }[]) => users.map((user) => user.id);

/** `role` is one of Zulip's role values (checked before the user is looked up, as a parameter). */
export function checkRoleValue(role: number | undefined): void {
  if (role !== undefined && !isRole(role)) throw badRequest('Invalid role');
}

/** Only owners make or unmake owners (administrators, everything else). */
export function checkMayGrant(caller: AuthUser, current: number, next: number): void {
  if ((current === Role.OWNER || next === Role.OWNER) && caller.role !== Role.OWNER) throw ownerRequired();
}

/** Zulip's check_last_owner: the user is the organization's one active human owner. */
function isOnlyOwner(user: UserRow, owners: { id: number }[]): boolean {
  return !user.isBot && owners.length === 1 && owners[0].id === user.id;
}

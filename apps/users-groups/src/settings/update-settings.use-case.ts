import { Injectable } from '@nestjs/common';
import { Messaging, UsersGroupsEvents, resolveSettings, type UserCommand, type SettingName } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { CommandClient } from '@teamchat/platform';
import { badRequest } from '@teamchat/zulip';
import { PasswordAttempts } from '../auth/password-attempts';
import { hashPassword, isStrongEnough, verifyPassword } from '../auth/passwords';
import { CredentialsRepository } from '../data/credentials.repository';
import { SettingsRepository } from '../data/settings.repository';
import { UsersRepository } from '../data/users.repository';
import { UserAccess } from '../users/user-access';
import { EmailChangeRequests } from '../email-changes/email-change-requests';
import { checkEmailChange } from '../email-changes/email-change-rules';
import { emailVisibilityEvents } from './email-visibility-events';
import { settingChanges } from './setting-changes';
import { userSettingsEvents } from './user-settings-events';
import { checkFullName } from '../users/full-name';

type Params = Record<string, unknown>;

/**
 * Zulip takes any name of the time zone database (zoneinfo.available_timezones()), links
 * included: Asia/Kolkata as well as Asia/Calcutta, US/Eastern. Intl lists only ICU's canonical
 * names (Asia/Calcutta) but knows the links; it reads names in any case, the database does not,
 * so a name also has the database's capitals (each part begins with one).
 */
const TIME_ZONES = new Set(Intl.supportedValuesOf('timeZone'));
const isZoneName = (name: string): boolean => {
  if (TIME_ZONES.has(name) || name === 'UTC') return true;
  if (!name.split('/').every((part) => /^[A-Z]/.test(part))) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};

/** Long enough for the confirmation mail, sent before commit (the SMTP timeouts are shorter). */
const MAILING_TRANSACTION = { maxWait: 5_000, timeout: 20_000 };

/**
 * PATCH /settings (zerver/views/user_settings.py json_change_settings): the caller's own
 * settings, profile, password and address, all checked before anything changes, then changed
 * together. A new password needs the current one (wrong guesses are limited as logins are) and
 * keeps the API key; a new address is only asked for: a link mailed to it makes the change.
 * Each change is announced to the user's clients; turning drafts synchronisation off deletes
 * the stored drafts (messaging owns them).
 */
@Injectable()
export class UpdateSettings {
  constructor(
    private readonly users: UsersRepository,
    private readonly credentials: CredentialsRepository,
    private readonly settings: SettingsRepository,
    private readonly outbox: EventOutbox,
    private readonly access: UserAccess,
    private readonly commands: CommandClient,
    private readonly attempts: PasswordAttempts,
    private readonly emailChanges: EmailChangeRequests,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const caller = user;
    if (caller.isBot) throw badRequest('This endpoint does not accept bot requests.');
    const changes = settingChanges(params, 'settings');
    const fullName = params.full_name === undefined ? undefined : checkFullName(String(params.full_name));
    const timezone = params.timezone === undefined ? undefined : checkTimezone(String(params.timezone));

    const account = await this.credentials.accountWithPassword(caller.id);
    const passwordHash =
      params.new_password === undefined
        ? undefined
        : await this.checkPasswordChange(account, String(params.old_password ?? ''), String(params.new_password));
    const newEmail = params.email === undefined ? undefined : String(params.email).trim();
    const emailChange = newEmail !== undefined && newEmail !== account.deliveryEmail;
    if (emailChange) {
      await checkEmailChange(this.users, { ...account, emailChangesDisabled: account.realm.emailChangesDisabled }, newEmail);
      await this.emailChanges.admit(account.id);
    }

    // Who hears of a new name or consent only decides the events' audience: read before the transaction.
    const everyone = fullName !== undefined ? (await this.access.audienceOf(realm.id, caller.id)).map((viewer) => viewer.id) : [];
    const humanAdmins = 'allow_private_data_export' in changes ? await this.users.humanAdminIdsOfRealm(realm.id) : [];

    const before = await this.outbox.runCold(
      async (tx) => {
        // The row stays locked until commit, so a concurrent settings change is not lost.
        const row = await this.settings.lockOwn(caller.id, tx);
        const before = resolveSettings(row.defaults, row.settings);
        await this.settings.save(
          caller.id,
          {
            settings: { ...before, ...changes },
            ...(fullName !== undefined ? { fullName } : {}),
            ...(timezone !== undefined ? { timezone } : {}),
          },
          tx,
        );
        if (passwordHash !== undefined) await this.credentials.setPasswordHash(caller.id, passwordHash, tx);
        if (emailChange) await this.emailChanges.start(account, account.realm, newEmail, tx);

        const changed = Object.entries(changes).filter(([name, value]) => before[name as SettingName] !== value);
        const settingEvents = userSettingsEvents(realm.id, caller.id, [
          ...changed.map(([property, value]) => ({ property, value })),
          ...(timezone !== undefined && timezone !== row.timezone ? [{ property: 'timezone', value: timezone }] : []),
        ]);
        const nameEvents =
          fullName !== undefined && fullName !== row.fullName
            ? [
                {
                  def: UsersGroupsEvents.realmUserChanged,
                  payload: {
                    realmId: realm.id,
                    users: everyone,
                    event: { type: 'realm_user', op: 'update', person: { user_id: caller.id, full_name: fullName } },
                  },
                },
              ]
            : [];
        const visibility = changed.find(([name]) => name === 'email_address_visibility');
        const visibilityEvents = visibility
          ? emailVisibilityEvents({
              realmId: realm.id,
              realmHost: realm.host,
              user: account,
              viewers: await this.access.audienceOf(realm.id, caller.id, tx),
              before: before.email_address_visibility,
              after: visibility[1] as number,
            })
          : [];
        const consent = changed.find(([name]) => name === 'allow_private_data_export');
        const consentEvents = consent
          ? [
              {
                def: UsersGroupsEvents.realmExportConsentChanged,
                payload: {
                  realmId: realm.id,
                  users: humanAdmins,
                  event: { type: 'realm_export_consent', user_id: caller.id, consented: consent[1] === true },
                },
              },
            ]
          : [];
        return { value: before, events: [...settingEvents, ...visibilityEvents, ...nameEvents, ...consentEvents] };
      },
      requestId,
      MAILING_TRANSACTION,
    );

    if (passwordHash !== undefined) await this.attempts.succeeded(realm.id, account.deliveryEmail);
    if (changes.enable_drafts_synchronization === false && before.enable_drafts_synchronization !== false) {
      await this.commands.call(Messaging.deleteUserDrafts, { realmId: realm.id, userId: caller.id });
    }
    return {};
  }

  /**
   * The current password, checked as a login checks it (Zulip calls authenticate(): the same
   * budget of wrong guesses; no password login in the organization means no match), then the
   * new one's strength. Returns the new hash.
   */
  private async checkPasswordChange(
    account: { id: number; deliveryEmail: string; realmId: number; password: { hash: string } | null; realm: { passwordAuthEnabled: boolean } },
    oldPassword: string,
    newPassword: string,
  ): Promise<string> {
    const wait = await this.attempts.secondsToWait(account.realmId, account.deliveryEmail);
    if (wait > 0) throw badRequest(`You're making too many attempts! Try again in ${Math.floor(wait)} seconds.`);
    const matches = (await verifyPassword(account.password?.hash, oldPassword)) && account.realm.passwordAuthEnabled;
    if (!matches) {
      await this.attempts.failed(account.realmId, account.deliveryEmail);
      throw badRequest('Wrong password!');
    }
    if (!isStrongEnough(newPassword)) throw badRequest('New password is too weak!');
    return hashPassword(newPassword);
  }
}

function checkTimezone(raw: string): string {
  if (raw !== '' && !isZoneName(raw)) throw badRequest(`Invalid timezone: ${raw}`);
  return raw;
}

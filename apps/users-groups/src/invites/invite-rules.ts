import { emailAllowedByDomains } from '../realm-settings/realm-domain-rules';
import { randomInt } from 'node:crypto';
import { Role, ZulipError, badRequest, isAdminRole, isOwnerRole } from '@teamchat/zulip';
import { isValidEmailAddress } from '../email-changes/email-address';
import type { InvitePolicyOf } from './invite-policy';

/** Zulip's INVITES_DEFAULT_REALM_DAILY_MAX: email invitations an organization may send in a day. */
export const INVITES_DAILY_MAX = 100;
/** Zulip's INVITES_MIN_USER_AGE_DAYS: how old a non-administrator's account must be to invite where sign-up is open. */
export const INVITES_MIN_USER_AGE_DAYS = 3;
/** How long a sign-up confirmation mailed from a reusable link or open sign-up works (Zulip: a day). */
export const REGISTRATION_LINK_VALIDITY_MINUTES = 24 * 60;

/** Zulip's roles an invitation may give (PreregistrationUser.INVITE_AS). */
const INVITE_AS = new Set<number>([Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST]);

/** Zulip's confirmation keys: 24 characters of lower-case base32. */
const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
export const generateConfirmationKey = () => Array.from({ length: 24 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join('');
/** Keys as a link may carry them (Zulip accepts 24 or 40 characters). */
export const isWellFormedKey = (key: string): boolean => /^[a-z0-9]{24}$|^[a-z0-9]{40}$/.test(key);

/**
 * Zulip's get_invitee_emails_set: split at commas and newlines; `Name <address>` keeps the
 * address; each trimmed; duplicates once, in the order first given.
 */
export function parseInviteeEmails(raw: string): string[] {
  const emails = new Set<string>();
  for (const part of raw.split(/[,\n]/)) {
    const named = /<(.*)>/.exec(part);
    emails.add((named ? named[1] : part).trim());
  }
  return [...emails];
}

/** Zulip's invite_as parameter check (check_int_in_validator): one of its roles. */
export function checkInviteAsValue(invitedAs: number): void {
  if (!INVITE_AS.has(invitedAs)) throw badRequest('Invalid invite_as');
}

/** Zulip's check_role_based_permissions for a new invitation: owners only by owners; administrators and moderators only by administrators. */
export function checkInviteAs(invitedAs: number, inviter: { role: number }): void {
  checkRoleBasedPermissions(invitedAs, inviter, invitedAs <= Role.MODERATOR);
}

/** Zulip's check_role_based_permissions (also for managing someone else's invitation, with requireAdmin). */
export function checkRoleBasedPermissions(invitedAs: number, caller: { role: number }, requireAdmin: boolean): void {
  if (invitedAs === Role.OWNER && !isOwnerRole(caller.role)) throw new ZulipError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
  if (requireAdmin && !isAdminRole(caller.role)) throw badRequest('Must be an organization administrator');
}

/**
 * When an invitation made now expires: null never. A lifetime a date cannot hold is refused
 * (Zulip would fail on it; the text is ours).
 */
export function expiryOf(minutes: number | null, now = Date.now()): Date | null {
  if (minutes === null) return null;
  const at = new Date(now + minutes * 60_000);
  if (Number.isNaN(at.getTime()) || at.getUTCFullYear() > 9999 || at.getUTCFullYear() < 1970) throw badRequest('Invalid invite_expires_in_minutes');
  return at;
}

/** Zulip's InvitationError: code INVITATION_FAILED, with what was skipped and why. */
export function invitationFailed(
  msg: string,
  errors: [string, string, boolean][],
  flags: { sentInvitations: boolean; dailyLimitReached?: boolean },
): ZulipError {
  return new ZulipError('INVITATION_FAILED', msg, {
    errors,
    sent_invitations: flags.sentInvitations,
    license_limit_reached: false,
    daily_limit_reached: flags.dailyLimitReached ?? false,
  });
}

export const DAILY_LIMIT_REACHED =
  'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.';

/**
 * Zulip's validate_email_is_valid with the organization's validator (get_realm_email_validator):
 * the error for an address, or null when it may join. Disposable-mail domains cannot be told
 * here (Zulip ships a list of them; we have none), so that setting refuses nothing yet.
 */
export function emailProblem(email: string, policy: Pick<InvitePolicyOf, 'emailsRestrictedToDomains' | 'realmDomains'>): string | null {
  if (!isValidEmailAddress(email)) return 'Invalid address.';
  if (!policy.emailsRestrictedToDomains) return null;
  const at = email.lastIndexOf('@');
  if (email.slice(0, at).includes('+')) return 'Email addresses containing + are not allowed.';
  return emailAllowedByDomains(email, policy.realmDomains) ? null : 'Outside your domain.';
}

/**
 * The Welcome Bot text an invitation keeps (Zulip 11.0, feature level 416): the
 * `welcome_message_custom_text` as given ("" for none), or null, the organization's own text,
 * when absent. Only administrators may give one (zerver/views/invite.py: checked after the
 * channels and groups, refused as a JsonableError).
 */
export function invitationWelcomeText(inviter: { role: number }, text: string | undefined): string | null {
  if (text === undefined) return null;
  if (!isAdminRole(inviter.role)) throw badRequest('Must be an organization administrator');
  return text;
}

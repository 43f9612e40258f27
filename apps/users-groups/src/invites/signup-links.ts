import type { MultiuseInviteModel, PreregistrationUserModel } from '@teamchat/db';
import { ZulipError } from '@teamchat/zulip';
import { InviteStatus } from '../data/invites.repository';
import { LINK_DOES_NOT_EXIST, LINK_EXPIRED, LINK_MALFORMED } from '../email-changes/confirm-email-change.use-case';
import { isWellFormedKey } from './invite-rules';

/** Zulip's confirmation pages for a link that leads nowhere (confirmation/*.html), all 404. */
const linkError = (msg: string) => new ZulipError('NOT_FOUND', msg);

/** A key as a link carries it, or the page for a malformed one. */
export function checkKeyShape(key: string): void {
  if (!isWellFormedKey(key)) throw linkError(LINK_MALFORMED);
}

/**
 * Zulip's get_object_from_key for a sign-up: one of this organization's (another's is unknown
 * here), pending, not expired, and not from a reusable link revoked since.
 */
export function checkPendingSignup(
  prereg: PreregistrationUserModel | null,
  realmId: number,
  multiuse: Pick<MultiuseInviteModel, 'status'> | null,
  now = Date.now(),
): asserts prereg is PreregistrationUserModel {
  if (!prereg || prereg.realmId !== realmId) throw linkError(LINK_DOES_NOT_EXIST);
  const expired = prereg.expiresAt !== null && prereg.expiresAt.getTime() <= now;
  if (prereg.status !== InviteStatus.ACTIVE || expired || multiuse?.status === InviteStatus.REVOKED) throw linkError(LINK_EXPIRED);
}

/** The same for a reusable link itself (Zulip's /join/<key>/). */
export function checkActiveMultiuse(invite: MultiuseInviteModel | null, realmId: number, now = Date.now()): asserts invite is MultiuseInviteModel {
  if (!invite || invite.realmId !== realmId) throw linkError(LINK_DOES_NOT_EXIST);
  if (invite.status !== InviteStatus.ACTIVE || (invite.expiresAt !== null && invite.expiresAt.getTime() <= now)) throw linkError(LINK_EXPIRED);
}

import { ZulipError, badRequest, isAdminRole } from '@teamchat/zulip';
import type { Transaction } from '../data/transactions';
import type { UsersRepository } from '../data/users.repository';
import { isValidEmailAddress } from './email-address';

/** Who asks to change their address, and the organization they belong to. */
export interface EmailChanger {
  id: number;
  realmId: number;
  role: number;
  isActive: boolean;
  emailChangesDisabled: boolean;
}

/**
 * Zulip's validate_email_change_request, checked when the change is asked for and again when
 * the link is followed: an active user, changes allowed (administrators always may), a valid
 * address, and none of the organization's accounts using it (compared without case).
 */
export async function checkEmailChange(users: UsersRepository, user: EmailChanger, newEmail: string, tx?: Transaction): Promise<void> {
  if (!user.isActive) throw new ZulipError('USER_DEACTIVATED', 'Account is deactivated');
  if (user.emailChangesDisabled && !isAdminRole(user.role)) {
    throw badRequest('Email address changes are disabled in this organization.');
  }
  if (!isValidEmailAddress(newEmail)) throw badRequest('Invalid address.');
  const holder = await users.emailHolder(user.realmId, newEmail, tx);
  if (holder) throw badRequest(holder.isActive ? 'Already has an account.' : 'Account has been deactivated.');
}

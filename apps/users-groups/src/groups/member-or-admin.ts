import type { AuthUser } from '@teamchat/contracts';
import { badRequest, isGuestRole } from '@teamchat/zulip';

/** Zulip's require_member_or_admin: the group listings are not for guests or bots. */
export function checkMemberOrAdmin(caller: AuthUser): void {
  if (isGuestRole(caller.role)) throw badRequest('Not allowed for guest users');
  if (caller.isBot) throw badRequest('This endpoint does not accept bot requests.');
}

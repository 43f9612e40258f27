import { Role, isAdminRole, isModeratorOrAbove } from '@teamchat/zulip';

/** Zulip's email_address_visibility values. */
export const EmailVisibility = {
  EVERYONE: 1,
  MEMBERS: 2,
  ADMINS: 3,
  NOBODY: 4,
  MODERATORS: 5,
} as const;

/** May `viewer` see the real address of `targetId`, whose visibility setting is `visibility`? */
export function canSeeDeliveryEmail(
  viewer: { id: number; role: number } | null,
  targetId: number,
  visibility: number,
): boolean {
  if (!viewer) return false;
  if (viewer.id === targetId) return true;
  switch (visibility) {
    case EmailVisibility.EVERYONE:
      return true;
    case EmailVisibility.MEMBERS:
      return viewer.role !== Role.GUEST;
    case EmailVisibility.ADMINS:
      return isAdminRole(viewer.role);
    case EmailVisibility.MODERATORS:
      return isModeratorOrAbove(viewer.role);
    default:
      return false;
  }
}

/**
 * The address the API shows for a user to everyone (`email`): the real one when visible to
 * everyone, otherwise Zulip's dummy `user<id>@<realm host>`.
 */
export function apiEmail(user: { id: number; deliveryEmail: string; isBot: boolean }, visibility: number, realmHost: string): string {
  if (user.isBot || visibility === EmailVisibility.EVERYONE) return user.deliveryEmail;
  return dummyEmail(user.id, realmHost);
}

/** Zulip's dummy address for a user: `user<id>@<realm host>`. */
export const dummyEmail = (userId: number, realmHost: string): string => `user${userId}@${realmHost}`;

/** Zulip's user roles; a lower number is more privileged. */
export const Role = {
  OWNER: 100,
  ADMINISTRATOR: 200,
  MODERATOR: 300,
  MEMBER: 400,
  GUEST: 600,
} as const;

export type RoleValue = (typeof Role)[keyof typeof Role];

export const ROLE_VALUES: readonly RoleValue[] = Object.values(Role);

export const isRole = (value: number): value is RoleValue => (ROLE_VALUES as number[]).includes(value);

export const isAdminRole = (role: number): boolean => role <= Role.ADMINISTRATOR;
export const isOwnerRole = (role: number): boolean => role === Role.OWNER;
export const isModeratorOrAbove = (role: number): boolean => role <= Role.MODERATOR;
export const isGuestRole = (role: number): boolean => role === Role.GUEST;

import { UsersGroups, UsersGroupsEvents, type ClientEvent, type EventDef } from '@teamchat/contracts';
import { Role, ZulipError } from '@teamchat/zulip';

export type PublishedEvent = { def: EventDef<ClientEvent> | EventDef<UsersGroups.UserAccessChanged>; payload: unknown };

/** A client event this service announces. */
export type ClientAnnouncement = { def: EventDef<ClientEvent>; payload: ClientEvent };

/**
 * A `realm_user` event (add, update, remove) about `person` for `recipients`; `marks` are read
 * by the gateway's fan-out and not sent on (`inaccessible_user`).
 */
export function realmUserEvent(
  realmId: number,
  recipients: number[],
  op: 'add' | 'update' | 'remove',
  person: Record<string, unknown>,
  marks: Record<string, unknown> = {},
): ClientAnnouncement {
  return { def: UsersGroupsEvents.realmUserChanged, payload: { realmId, users: recipients, event: { type: 'realm_user', op, person, ...marks } } };
}

/** A `realm_user` update naming one changed thing about `userId` (Zulip's person shapes). */
export function realmUserUpdate(realmId: number, recipients: number[], userId: number, change: Record<string, unknown>): PublishedEvent {
  return realmUserEvent(realmId, recipients, 'update', { user_id: userId, ...change });
}

/** Tells every gateway that what it cached about the user's credentials is stale (see UserAdministrationEvents). */
export function accessChanged(realmId: number, userId: number, deactivated: boolean): PublishedEvent {
  return { def: UsersGroups.UserAdministrationEvents.userAccessChanged, payload: { realmId, userId, deactivated } };
}

/** Zulip's OrganizationAdministratorRequiredError / OrganizationOwnerRequiredError. */
export const administratorRequired = () => new ZulipError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
export const ownerRequired = () => new ZulipError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');

/** The administrator-only endpoints refuse everyone else before looking at the user they name. */
export function requireAdministrator(caller: { role: number } | null): asserts caller is { role: number } {
  if (!caller || caller.role > Role.ADMINISTRATOR) throw administratorRequired();
}

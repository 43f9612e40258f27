import { Messaging } from '@teamchat/contracts';
import { badRequest } from '@teamchat/zulip';
import { outgoing, type OutgoingEvent } from '../core/outgoing-events';

/** Zulip's answer for an id that names no user of the caller's organization (another organization's included). */
export const noSuchUser = () => badRequest('No such user');

/** `muted_users` with the muter's whole list, for the muter's clients only. */
export const mutedUsersEvent = (realmId: number, userId: number, mutes: Messaging.MutedUserRecord[]): OutgoingEvent =>
  outgoing(Messaging.MessagingEvents.mutedUsersChanged, { realmId, users: [userId], event: { type: 'muted_users', muted_users: mutes } });

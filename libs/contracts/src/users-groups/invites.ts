import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand, defineCommand } from '../command';
import { apiSchema, emptyResponse, int } from '../api/api-schemas';
import { clientEventSchema, defineEvent } from '../event';
import { MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH } from './realm-settings';

/**
 * Invitations and sign-up (zerver/views/invite.py, zerver/actions/invites.py,
 * zerver/views/registration.py): email invitations and reusable links, managed through the API;
 * the links they lead to are pages the gateway serves (see the paths below) and users-groups
 * answers through the internal commands at the end of this file.
 */

/** Zulip's INVITATION_LINK_VALIDITY_DAYS (10) in minutes: the default lifetime of an invitation. */
export const INVITATION_LINK_VALIDITY_MINUTES = 10 * 24 * 60;

/** Where an invitation's or a sign-up confirmation's link leads, followed by its key (Zulip's). */
export const DO_CONFIRM_PATH = '/accounts/do_confirm';
/** The registration form's target, and open sign-up's page (Zulip's /accounts/register/). */
export const REGISTER_PATH = '/accounts/register/';
/** A reusable invitation link: `/join/<key>/` (Zulip's). */
export const JOIN_PATH = '/join';

/** One invitation as GET /invites lists it (Zulip's do_get_invites_controlled_by_user). */
export const inviteSchema = apiSchema(
  'Invite',
  z.object({
    id: int(),
    invited_by_user_id: int(),
    /** Unix seconds. */
    invited: int(),
    /** Unix seconds; null never expires. */
    expiry_date: int().nullable(),
    invited_as: int(),
    /** Email invitations only. */
    email: z.string().optional(),
    /** Email invitations only. */
    notify_referrer_on_join: z.boolean().optional(),
    /** Reusable links only. */
    link_url: z.string().optional(),
    is_multiuse: z.boolean(),
  }),
);
export type InviteRecord = z.infer<typeof inviteSchema>;

/** Welcome Bot's custom text for the accounts an invitation makes (absent: the organization's; "": none). */
const welcomeTextParam = () => param.string(z.string().max(MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH)).optional();

/** Null never expires; absent is Zulip's default. */
const expiryParam = () => param.json(z.number().int().nullable()).default(INVITATION_LINK_VALIDITY_MINUTES);

export const sendInvitesParams = {
  invitee_emails: param.string(),
  invite_expires_in_minutes: expiryParam(),
  invite_as: param.int().default(400),
  stream_ids: param.intList(),
  group_ids: param.intList().optional(),
  include_realm_default_subscriptions: param.bool().default(false),
  notify_referrer_on_join: param.bool().default(true),
  welcome_message_custom_text: welcomeTextParam(),
};

export const sendInvites = defineApiCommand('users-groups', 'send_invites', {
  route: 'POST /invites',
  summary: 'Invites the listed addresses by email.',
  params: sendInvitesParams,
  response: emptyResponse,
});

export const listInvites = defineApiCommand('users-groups', 'list_invites', {
  route: 'GET /invites',
  summary: "The unexpired invitations the caller may manage (the caller's own; administrators, everyone's).",
  params: {},
  response: z.object({ invites: z.array(inviteSchema) }),
});

export const inviteIdParams = { invite_id: param.int() };

export const revokeInvite = defineApiCommand('users-groups', 'revoke_invite', {
  route: 'DELETE /invites/{invite_id}',
  summary: 'Revokes an email invitation.',
  params: inviteIdParams,
  response: emptyResponse,
});

export const resendInvite = defineApiCommand('users-groups', 'resend_invite', {
  route: 'POST /invites/{invite_id}/resend',
  summary: 'Sends an email invitation again.',
  params: inviteIdParams,
  response: emptyResponse,
});

export const createMultiuseInviteParams = {
  invite_expires_in_minutes: expiryParam(),
  invite_as: param.int().default(400),
  stream_ids: param.intList().default([]),
  group_ids: param.intList().optional(),
  include_realm_default_subscriptions: param.bool().default(false),
  welcome_message_custom_text: welcomeTextParam(),
};

export const createMultiuseInvite = defineApiCommand('users-groups', 'create_multiuse_invite', {
  route: 'POST /invites/multiuse',
  summary: 'Creates a reusable invitation link.',
  params: createMultiuseInviteParams,
  response: z.object({ invite_link: z.string() }),
});

export const revokeMultiuseInvite = defineApiCommand('users-groups', 'revoke_multiuse_invite', {
  route: 'DELETE /invites/multiuse/{invite_id}',
  summary: 'Revokes a reusable invitation link.',
  params: inviteIdParams,
  response: emptyResponse,
});

export const InviteEvents = {
  /** `invites_changed`, to the organization's administrators and the changed invitation's creator. */
  invitesChanged: defineEvent('users-groups', 'invites_changed', clientEventSchema),
};

// ---- sign-up: the gateway's pages ask these (no API credentials: the key is the proof) ----

/** What a sign-up page shows. */
export interface RegistrationForm {
  realmName: string;
  realmUrl: string;
  /** The address the account will have (a confirmed one: invited, or confirmed by mail). */
  email: string;
}

/** Internal, from GET /accounts/do_confirm/<key>: the pending sign-up the key names, if still valid. */
export const registrationForm = defineCommand<{ host: string; key: string }, RegistrationForm>(
  'users-groups',
  'registration_form',
  z.object({ host: z.string(), key: z.string() }),
);

/** What a completed sign-up made. */
export interface AccountRegistered {
  userId: number;
  email: string;
  realmName: string;
  realmUrl: string;
}

/**
 * Internal, from POST /accounts/register/ with a key: makes the account the key's pending
 * sign-up allows (role, channels, groups), marks it used and announces it.
 */
export const registerAccount = defineCommand<
  { host: string; key: string; fullName: string; password: string; requestId: string },
  AccountRegistered
>(
  'users-groups',
  'register_account',
  z.object({ host: z.string(), key: z.string(), fullName: z.string(), password: z.string(), requestId: z.string() }),
);

/** What the page before an address is confirmed shows: the organization, and whether sign-up is open there. */
export interface SignupStart {
  realmName: string;
}

/**
 * Internal, from GET /join/<key>/ (a reusable link: `multiuseKey`) or GET /accounts/register/
 * (open sign-up: none): whether an address may be entered there; refused (404 / 400) otherwise.
 */
export const signupStart = defineCommand<{ host: string; multiuseKey?: string }, SignupStart>(
  'users-groups',
  'signup_start',
  z.object({ host: z.string(), multiuseKey: z.string().optional() }),
);

/**
 * Internal, from POST /join/<key>/ or POST /accounts/register/ with `email`: checks the address
 * may join and mails it a confirmation link to the registration form (Zulip's
 * confirm_registration mail), which carries the reusable link's role, channels and groups.
 */
export const requestRegistration = defineCommand<{ host: string; email: string; multiuseKey?: string; requestId: string }, SignupStart>(
  'users-groups',
  'request_registration',
  z.object({ host: z.string(), email: z.string(), multiuseKey: z.string().optional(), requestId: z.string() }),
);

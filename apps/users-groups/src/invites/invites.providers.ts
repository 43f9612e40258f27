import { CreateMultiuseInvite } from './create-multiuse-invite.use-case';
import { InviteAccess } from './invite-access';
import { InvitePolicy } from './invite-policy';
import { InvitesChanged } from './invites-changed';
import { ListInvites } from './list-invites.use-case';
import { RegisterAccount } from './register-account.use-case';
import { ShowRegistrationForm } from './registration-form.use-case';
import { RequestRegistration } from './request-registration.use-case';
import { ResendInvite } from './resend-invite.use-case';
import { RevokeInvite } from './revoke-invite.use-case';
import { RevokeMultiuseInvite } from './revoke-multiuse-invite.use-case';
import { SendInvites } from './send-invites.use-case';
import { SignupStartCheck } from './signup-start.use-case';

export { InvitesHandler } from './invites.handler';

/** Invitations and sign-up: provided by the service's root module (they use its CreateUser, NotificationBot, MailQueue). */
export const INVITES = [
  InvitePolicy,
  InviteAccess,
  InvitesChanged,
  SendInvites,
  ListInvites,
  RevokeInvite,
  ResendInvite,
  CreateMultiuseInvite,
  RevokeMultiuseInvite,
  ShowRegistrationForm,
  RegisterAccount,
  SignupStartCheck,
  RequestRegistration,
];

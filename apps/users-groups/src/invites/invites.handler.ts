import { Controller } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { CreateMultiuseInvite } from './create-multiuse-invite.use-case';
import { ListInvites } from './list-invites.use-case';
import { RegisterAccount } from './register-account.use-case';
import { ShowRegistrationForm } from './registration-form.use-case';
import { RequestRegistration } from './request-registration.use-case';
import { ResendInvite } from './resend-invite.use-case';
import { RevokeInvite } from './revoke-invite.use-case';
import { RevokeMultiuseInvite } from './revoke-multiuse-invite.use-case';
import { SendInvites } from './send-invites.use-case';
import { SignupStartCheck } from './signup-start.use-case';

@Controller()
export class InvitesHandler {
  constructor(
    private readonly sendInvites: SendInvites,
    private readonly listInvites: ListInvites,
    private readonly revokeInvite: RevokeInvite,
    private readonly resendInvite: ResendInvite,
    private readonly createMultiuseInvite: CreateMultiuseInvite,
    private readonly revokeMultiuseInvite: RevokeMultiuseInvite,
    private readonly registrationForm: ShowRegistrationForm,
    private readonly registerAccount: RegisterAccount,
    private readonly signupStart: SignupStartCheck,
    private readonly requestRegistration: RequestRegistration,
  ) {}

  @CommandHandler(UsersGroups.sendInvites)
  send(@Payload() payload: PayloadOf<typeof UsersGroups.sendInvites>) {
    return this.sendInvites.execute(payload);
  }

  @CommandHandler(UsersGroups.listInvites)
  list(@Payload() payload: PayloadOf<typeof UsersGroups.listInvites>) {
    return this.listInvites.execute(payload);
  }

  @CommandHandler(UsersGroups.revokeInvite)
  revoke(@Payload() payload: PayloadOf<typeof UsersGroups.revokeInvite>) {
    return this.revokeInvite.execute(payload);
  }

  @CommandHandler(UsersGroups.resendInvite)
  resend(@Payload() payload: PayloadOf<typeof UsersGroups.resendInvite>) {
    return this.resendInvite.execute(payload);
  }

  @CommandHandler(UsersGroups.createMultiuseInvite)
  createMultiuse(@Payload() payload: PayloadOf<typeof UsersGroups.createMultiuseInvite>) {
    return this.createMultiuseInvite.execute(payload);
  }

  @CommandHandler(UsersGroups.revokeMultiuseInvite)
  revokeMultiuse(@Payload() payload: PayloadOf<typeof UsersGroups.revokeMultiuseInvite>) {
    return this.revokeMultiuseInvite.execute(payload);
  }

  @CommandHandler(UsersGroups.registrationForm)
  form(@Payload() payload: PayloadOf<typeof UsersGroups.registrationForm>) {
    return this.registrationForm.execute(payload);
  }

  @CommandHandler(UsersGroups.registerAccount)
  register(@Payload() payload: PayloadOf<typeof UsersGroups.registerAccount>) {
    return this.registerAccount.execute(payload);
  }

  @CommandHandler(UsersGroups.signupStart)
  start(@Payload() payload: PayloadOf<typeof UsersGroups.signupStart>) {
    return this.signupStart.execute(payload);
  }

  @CommandHandler(UsersGroups.requestRegistration)
  requestSignup(@Payload() payload: PayloadOf<typeof UsersGroups.requestRegistration>) {
    return this.requestRegistration.execute(payload);
  }
}

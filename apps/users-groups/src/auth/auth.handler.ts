import { Controller } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { RealmDirectory } from '../realms/realm-directory';
import { Authenticate } from './authenticate.use-case';
import { FetchApiKey } from './fetch-api-key.use-case';

/** NATS adapters for identity: each decodes nothing itself and calls one use case. */
@Controller()
export class AuthHandler {
  constructor(
    private readonly realms: RealmDirectory,
    private readonly authenticate: Authenticate,
    private readonly fetchApiKey: FetchApiKey,
  ) {}

  @CommandHandler(UsersGroups.resolveRealm)
  async resolveRealm(@Payload() payload: PayloadOf<typeof UsersGroups.resolveRealm>) {
    return this.realms.toInfo(await this.realms.resolve(payload.host));
  }

  @CommandHandler(UsersGroups.authenticate)
  authenticateCaller(@Payload() payload: PayloadOf<typeof UsersGroups.authenticate>) {
    return this.authenticate.execute(payload);
  }

  @CommandHandler(UsersGroups.authenticateMany)
  authenticateCallers(@Payload() payload: PayloadOf<typeof UsersGroups.authenticateMany>) {
    return this.authenticate.executeMany(payload);
  }

  @CommandHandler(UsersGroups.fetchApiKey)
  fetchKey(@Payload() payload: PayloadOf<typeof UsersGroups.fetchApiKey>) {
    return this.fetchApiKey.execute(payload);
  }
}

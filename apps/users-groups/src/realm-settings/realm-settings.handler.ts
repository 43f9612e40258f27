import { Controller } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { ChangeRealmImage } from './change-realm-image.use-case';
import { CreateRealmDomain } from './create-realm-domain.use-case';
import { DeleteRealmDomain } from './delete-realm-domain.use-case';
import { ListRealmDomains } from './list-realm-domains.use-case';
import { TestWelcomeBotCustomMessage } from './test-welcome-bot-custom-message.use-case';
import { UpdateRealm } from './update-realm.use-case';
import { UpdateRealmDomain } from './update-realm-domain.use-case';
import { WelcomeBot } from './welcome-bot';

/** PATCH /realm, the allowed email domains, Welcome Bot's test message, and the icon's and logos' sources. */
@Controller()
export class RealmSettingsHandler {
  constructor(
    private readonly updateRealm: UpdateRealm,
    private readonly listDomains: ListRealmDomains,
    private readonly createDomain: CreateRealmDomain,
    private readonly updateDomain: UpdateRealmDomain,
    private readonly deleteDomain: DeleteRealmDomain,
    private readonly testWelcome: TestWelcomeBotCustomMessage,
    private readonly changeImage: ChangeRealmImage,
  ) {}

  @CommandHandler(UsersGroups.updateRealm)
  update(@Payload() payload: PayloadOf<typeof UsersGroups.updateRealm>) {
    return this.updateRealm.execute(payload);
  }

  @CommandHandler(UsersGroups.listRealmDomains)
  domains(@Payload() payload: PayloadOf<typeof UsersGroups.listRealmDomains>) {
    return this.listDomains.execute(payload);
  }

  @CommandHandler(UsersGroups.createRealmDomain)
  addDomain(@Payload() payload: PayloadOf<typeof UsersGroups.createRealmDomain>) {
    return this.createDomain.execute(payload);
  }

  @CommandHandler(UsersGroups.updateRealmDomain)
  changeDomain(@Payload() payload: PayloadOf<typeof UsersGroups.updateRealmDomain>) {
    return this.updateDomain.execute(payload);
  }

  @CommandHandler(UsersGroups.deleteRealmDomain)
  removeDomain(@Payload() payload: PayloadOf<typeof UsersGroups.deleteRealmDomain>) {
    return this.deleteDomain.execute(payload);
  }

  @CommandHandler(UsersGroups.testWelcomeBotCustomMessage)
  testWelcomeMessage(@Payload() payload: PayloadOf<typeof UsersGroups.testWelcomeBotCustomMessage>) {
    return this.testWelcome.execute(payload);
  }

  @CommandHandler(UsersGroups.changeRealmImage)
  changeRealmImage(@Payload() payload: PayloadOf<typeof UsersGroups.changeRealmImage>) {
    return this.changeImage.execute(payload);
  }
}

/** The realm-settings feature's use cases (provided by the service's module, beside CreateUser which Welcome Bot uses). */
export const REALM_SETTINGS_PROVIDERS = [
  UpdateRealm,
  ListRealmDomains,
  CreateRealmDomain,
  UpdateRealmDomain,
  DeleteRealmDomain,
  TestWelcomeBotCustomMessage,
  ChangeRealmImage,
  WelcomeBot,
];

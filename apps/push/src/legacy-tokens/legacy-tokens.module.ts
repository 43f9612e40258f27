import { Controller, Module } from '@nestjs/common';
import { Push, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { PushDeviceTokensRepository } from '../data/push-device-tokens.repository';
import { RelayModule } from '../relay/relay.module';
import { AddDeviceToken } from './add-device-token.use-case';
import { TOKEN_KIND } from './device-token';
import { RemoveDeviceToken } from './remove-device-token.use-case';
import { SendTestNotification } from './send-test-notification.use-case';

@Controller()
export class LegacyTokensHandler {
  constructor(
    private readonly add: AddDeviceToken,
    private readonly remove: RemoveDeviceToken,
    private readonly test: SendTestNotification,
  ) {}

  @CommandHandler(Push.addApnsDeviceToken)
  addApns(@Payload() { realm, user, requestId, params }: PayloadOf<typeof Push.addApnsDeviceToken>) {
    return this.add.execute({ realm, user, requestId, kind: TOKEN_KIND.apns, token: params.token, iosAppId: params.appid });
  }

  @CommandHandler(Push.addAndroidRegId)
  addFcm(@Payload() { realm, user, requestId, params }: PayloadOf<typeof Push.addAndroidRegId>) {
    return this.add.execute({ realm, user, requestId, kind: TOKEN_KIND.fcm, token: params.token });
  }

  @CommandHandler(Push.removeApnsDeviceToken)
  removeApns(@Payload() { realm, user, requestId, params }: PayloadOf<typeof Push.removeApnsDeviceToken>) {
    return this.remove.execute({ realm, user, requestId, kind: TOKEN_KIND.apns, token: params.token });
  }

  @CommandHandler(Push.removeAndroidRegId)
  removeFcm(@Payload() { realm, user, requestId, params }: PayloadOf<typeof Push.removeAndroidRegId>) {
    return this.remove.execute({ realm, user, requestId, kind: TOKEN_KIND.fcm, token: params.token });
  }

  @CommandHandler(Push.sendTestNotification)
  sendTest(@Payload() payload: PayloadOf<typeof Push.sendTestNotification>) {
    return this.test.execute(payload);
  }
}

/** The older token registrations (POST/DELETE /users/me/apns_device_token, /users/me/android_gcm_reg_id) and their test notification. */
@Module({
  imports: [RelayModule],
  controllers: [LegacyTokensHandler],
  providers: [PushDeviceTokensRepository, AddDeviceToken, RemoveDeviceToken, SendTestNotification],
  exports: [PushDeviceTokensRepository],
})
export class LegacyTokensModule {}

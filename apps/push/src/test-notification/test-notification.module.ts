import { Controller, Module } from '@nestjs/common';
import { Push, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { DevicesModule } from '../devices/devices.module';
import { RelayModule } from '../relay/relay.module';
import { SendE2eeTestNotification } from './send-e2ee-test-notification.use-case';

@Controller()
export class TestNotificationHandler {
  constructor(private readonly useCase: SendE2eeTestNotification) {}

  @CommandHandler(Push.sendE2eeTestNotification)
  send(@Payload() payload: PayloadOf<typeof Push.sendE2eeTestNotification>) {
    return this.useCase.execute(payload);
  }
}

/** POST /mobile_push/e2ee/test_notification. */
@Module({
  imports: [DevicesModule, RelayModule],
  controllers: [TestNotificationHandler],
  providers: [SendE2eeTestNotification],
})
export class TestNotificationModule {}

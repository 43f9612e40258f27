import { Controller, Module } from '@nestjs/common';
import { Push, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { DevicesModule } from '../devices/devices.module';
import { RelayModule } from '../relay/relay.module';
import { RegisterPushDevice } from './register-push-device.use-case';
import { RelayRegistration } from './relay-registration';

@Controller()
export class RegistrationHandler {
  constructor(private readonly useCase: RegisterPushDevice) {}

  @CommandHandler(Push.registerPushDevice)
  register(@Payload() payload: PayloadOf<typeof Push.registerPushDevice>) {
    return this.useCase.execute(payload);
  }
}

/** POST /mobile_push/register and the background registration with the relay. */
@Module({
  imports: [DevicesModule, RelayModule],
  controllers: [RegistrationHandler],
  providers: [RegisterPushDevice, RelayRegistration],
})
export class RegistrationModule {}

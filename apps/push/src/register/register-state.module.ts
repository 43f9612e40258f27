import { Controller, Injectable, Module } from '@nestjs/common';
import { Realtime, type Push } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { DevicesModule } from '../devices/devices.module';
import { statusOf } from '../devices/push-device';
import { PushDevicesRepository } from '../data/push-devices.repository';

/**
 * The part of POST /register's initial state push owns: `push_devices` (fetch key
 * `push_device`), the caller's devices by push account ID with their registration status.
 */
@Injectable()
export class RegisterStateReader {
  constructor(private readonly devices: PushDevicesRepository) {}

  async read(request: Realtime.RegisterStateRequest): Promise<Realtime.RegisterState> {
    if (!Realtime.wants(request, 'push_device')) return {};
    const devices: Record<string, Push.PushDeviceState> = {};
    for (const device of await this.devices.statesOf(request.user.id)) {
      devices[device.pushAccountId] = { status: statusOf(device), error_code: device.errorCode };
    }
    return { push_devices: devices };
  }
}

@Controller()
export class RegisterStateHandler {
  constructor(private readonly reader: RegisterStateReader) {}

  @CommandHandler(Realtime.registerState.push)
  read(@Payload() payload: Realtime.RegisterStateRequest) {
    return this.reader.read(payload);
  }
}

@Module({
  imports: [DevicesModule],
  controllers: [RegisterStateHandler],
  providers: [RegisterStateReader],
})
export class RegisterStateModule {}

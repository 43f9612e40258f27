import { Module } from '@nestjs/common';
import { PushDevicesRepository } from '../data/push-devices.repository';

/** The push devices table, shared by every push feature. */
@Module({
  providers: [PushDevicesRepository],
  exports: [PushDevicesRepository],
})
export class DevicesModule {}

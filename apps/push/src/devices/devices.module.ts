import { Module } from '@nestjs/common';
import { PushDeviceStore } from './push-device.store';

/** The push devices table, shared by every push feature. */
@Module({
  providers: [PushDeviceStore],
  exports: [PushDeviceStore],
})
export class DevicesModule {}

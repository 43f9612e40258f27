import { Module } from '@nestjs/common';
import { PushRelayClient } from './push-relay.client';

/** The HTTP client of the push relay. */
@Module({
  providers: [PushRelayClient],
  exports: [PushRelayClient],
})
export class RelayModule {}

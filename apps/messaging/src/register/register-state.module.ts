import { Controller, Module } from '@nestjs/common';
import { Realtime } from '@teamchat/contracts';
import { DbModule } from '@teamchat/db';
import { CommandHandler, Payload } from '@teamchat/platform';
import { ChannelStatsReader } from '../channels/channel-stats';
import { MessagingCoreModule } from '../core/core.module';
import { ListSubscriptions } from '../channels/list-subscriptions.use-case';
import { ChannelListsReader } from './channel-lists.reader';
import { MessageStateReader } from './message-state.reader';
import { RegisterStateReader } from './register-state.reader';

@Controller()
export class RegisterStateHandler {
  constructor(private readonly reader: RegisterStateReader) {}

  @CommandHandler(Realtime.registerState.messaging)
  read(@Payload() payload: Realtime.RegisterStateRequest) {
    return this.reader.read(payload);
  }
}

/** The part of POST /register's initial state this service owns. */
@Module({
  imports: [DbModule, MessagingCoreModule],
  controllers: [RegisterStateHandler],
  providers: [RegisterStateReader, ChannelListsReader, MessageStateReader, ChannelStatsReader, ListSubscriptions],
})
export class RegisterStateModule {}

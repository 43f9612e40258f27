import { Controller } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { ArchiveChannel } from './archive-channel.use-case';
import { GetChannel } from './get-channel.use-case';
import { UpdateChannel } from './update-channel.use-case';

@Controller()
export class ChannelAdministrationHandler {
  constructor(
    private readonly getChannel: GetChannel,
    private readonly updateChannel: UpdateChannel,
    private readonly archiveChannel: ArchiveChannel,
  ) {}

  @CommandHandler(Messaging.getChannel)
  get(@Payload() payload: PayloadOf<typeof Messaging.getChannel>) {
    return this.getChannel.execute(payload);
  }

  @CommandHandler(Messaging.updateChannel)
  update(@Payload() payload: PayloadOf<typeof Messaging.updateChannel>) {
    return this.updateChannel.execute(payload);
  }

  @CommandHandler(Messaging.archiveChannel)
  archive(@Payload() payload: PayloadOf<typeof Messaging.archiveChannel>) {
    return this.archiveChannel.execute(payload);
  }
}

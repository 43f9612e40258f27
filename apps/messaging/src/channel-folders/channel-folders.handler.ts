import { Controller } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { CreateChannelFolder } from './create-channel-folder.use-case';
import { ListChannelFolders } from './list-channel-folders.use-case';
import { ReorderChannelFolders } from './reorder-channel-folders.use-case';
import { UpdateChannelFolder } from './update-channel-folder.use-case';

@Controller()
export class ChannelFoldersHandler {
  constructor(
    private readonly createUseCase: CreateChannelFolder,
    private readonly listUseCase: ListChannelFolders,
    private readonly updateUseCase: UpdateChannelFolder,
    private readonly reorderUseCase: ReorderChannelFolders,
  ) {}

  @CommandHandler(Messaging.createChannelFolder)
  create(@Payload() payload: PayloadOf<typeof Messaging.createChannelFolder>) {
    return this.createUseCase.execute(payload);
  }

  @CommandHandler(Messaging.listChannelFolders)
  list(@Payload() payload: PayloadOf<typeof Messaging.listChannelFolders>) {
    return this.listUseCase.execute(payload);
  }

  @CommandHandler(Messaging.updateChannelFolder)
  update(@Payload() payload: PayloadOf<typeof Messaging.updateChannelFolder>) {
    return this.updateUseCase.execute(payload);
  }

  @CommandHandler(Messaging.reorderChannelFolders)
  reorder(@Payload() payload: PayloadOf<typeof Messaging.reorderChannelFolders>) {
    return this.reorderUseCase.execute(payload);
  }
}

import { Controller } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { AddDefaultChannel } from './add-default-channel.use-case';
import { RemoveDefaultChannel } from './remove-default-channel.use-case';
import { SubscribeToDefaultChannels } from './subscribe-to-default-channels.use-case';
import { SubscribeNewUser } from './subscribe-new-user.use-case';
import { CheckInviteChannels } from './check-invite-channels.use-case';

@Controller()
export class DefaultChannelsHandler {
  constructor(
    private readonly addUseCase: AddDefaultChannel,
    private readonly removeUseCase: RemoveDefaultChannel,
    private readonly subscribeUseCase: SubscribeToDefaultChannels,
    private readonly subscribeNewUserUseCase: SubscribeNewUser,
    private readonly checkInviteChannelsUseCase: CheckInviteChannels,
  ) {}

  @CommandHandler(Messaging.addDefaultChannel)
  add(@Payload() payload: PayloadOf<typeof Messaging.addDefaultChannel>) {
    return this.addUseCase.execute(payload);
  }

  @CommandHandler(Messaging.removeDefaultChannel)
  remove(@Payload() payload: PayloadOf<typeof Messaging.removeDefaultChannel>) {
    return this.removeUseCase.execute(payload);
  }

  @CommandHandler(Messaging.subscribeToDefaultChannels)
  async subscribeNewUser(@Payload() payload: PayloadOf<typeof Messaging.subscribeToDefaultChannels>) {
    return { subscribed: await this.subscribeUseCase.execute(payload.user, payload.requestId) };
  }

  @CommandHandler(Messaging.subscribeNewUser)
  subscribeInvited(@Payload() payload: PayloadOf<typeof Messaging.subscribeNewUser>) {
    return this.subscribeNewUserUseCase.execute(payload);
  }

  @CommandHandler(Messaging.checkInviteChannels)
  checkInviteChannels(@Payload() payload: PayloadOf<typeof Messaging.checkInviteChannels>) {
    return this.checkInviteChannelsUseCase.execute(payload);
  }
}

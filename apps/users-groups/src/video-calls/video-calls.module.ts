import { Controller, Module } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { CreateBigBlueButtonCall } from './create-bigbluebutton-call.use-case';

@Controller()
export class VideoCallsHandler {
  constructor(private readonly createBigBlueButton: CreateBigBlueButtonCall) {}

  @CommandHandler(UsersGroups.createBigBlueButtonCall)
  bigBlueButton(@Payload() payload: PayloadOf<typeof UsersGroups.createBigBlueButtonCall>) {
    return this.createBigBlueButton.execute(payload);
  }
}

/** Video calls: BigBlueButton meetings (Jitsi Meet links are made by clients). */
@Module({
  controllers: [VideoCallsHandler],
  providers: [CreateBigBlueButtonCall],
})
export class VideoCallsModule {}

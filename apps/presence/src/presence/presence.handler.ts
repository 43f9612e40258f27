import { Controller } from '@nestjs/common';
import { Presence, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { GetRealmPresence } from './get-realm-presence.use-case';
import { GetUserPresence } from './get-user-presence.use-case';
import { UpdatePresence } from './update-presence.use-case';

@Controller()
export class PresenceHandler {
  constructor(
    private readonly updateUseCase: UpdatePresence,
    private readonly realmUseCase: GetRealmPresence,
    private readonly userUseCase: GetUserPresence,
  ) {}

  @CommandHandler(Presence.updatePresence)
  update(@Payload() payload: PayloadOf<typeof Presence.updatePresence>) {
    return this.updateUseCase.execute(payload);
  }

  @CommandHandler(Presence.getRealmPresence)
  realm(@Payload() payload: PayloadOf<typeof Presence.getRealmPresence>) {
    return this.realmUseCase.execute(payload);
  }

  @CommandHandler(Presence.getUserPresence)
  user(@Payload() payload: PayloadOf<typeof Presence.getUserPresence>) {
    return this.userUseCase.execute(payload);
  }
}

import { Controller } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { AddBot } from './add-bot.use-case';
import { DeactivateBot } from './deactivate-bot.use-case';
import { ListBots } from './list-bots.use-case';
import { RegenerateBotApiKey } from './regenerate-bot-api-key.use-case';
import { UpdateBot } from './update-bot.use-case';

/** NATS adapters for bots: each calls one use case. */
@Controller()
export class BotsHandler {
  constructor(
    private readonly addBot: AddBot,
    private readonly listBots: ListBots,
    private readonly updateBot: UpdateBot,
    private readonly deactivateBot: DeactivateBot,
    private readonly regenerateBotApiKey: RegenerateBotApiKey,
  ) {}

  @CommandHandler(UsersGroups.addBot)
  add(@Payload() payload: PayloadOf<typeof UsersGroups.addBot>) {
    return this.addBot.execute(payload);
  }

  @CommandHandler(UsersGroups.listBots)
  list(@Payload() payload: PayloadOf<typeof UsersGroups.listBots>) {
    return this.listBots.execute(payload);
  }

  @CommandHandler(UsersGroups.updateBot)
  update(@Payload() payload: PayloadOf<typeof UsersGroups.updateBot>) {
    return this.updateBot.execute(payload);
  }

  @CommandHandler(UsersGroups.deactivateBot)
  deactivate(@Payload() payload: PayloadOf<typeof UsersGroups.deactivateBot>) {
    return this.deactivateBot.execute(payload);
  }

  @CommandHandler(UsersGroups.regenerateBotApiKey)
  regenerateKey(@Payload() payload: PayloadOf<typeof UsersGroups.regenerateBotApiKey>) {
    return this.regenerateBotApiKey.execute(payload);
  }
}

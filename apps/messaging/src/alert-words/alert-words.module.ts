import { Controller, Module } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { MessagingCoreModule } from '../core/core.module';
import { AddAlertWords } from './add-alert-words.use-case';
import { ListAlertWords } from './list-alert-words.use-case';
import { RemoveAlertWords } from './remove-alert-words.use-case';

@Controller()
export class AlertWordsHandler {
  constructor(
    private readonly listUseCase: ListAlertWords,
    private readonly addUseCase: AddAlertWords,
    private readonly removeUseCase: RemoveAlertWords,
  ) {}

  @CommandHandler(Messaging.listAlertWords)
  list(@Payload() payload: PayloadOf<typeof Messaging.listAlertWords>) {
    return this.listUseCase.execute(payload);
  }

  @CommandHandler(Messaging.addAlertWords)
  add(@Payload() payload: PayloadOf<typeof Messaging.addAlertWords>) {
    return this.addUseCase.execute(payload);
  }

  @CommandHandler(Messaging.removeAlertWords)
  remove(@Payload() payload: PayloadOf<typeof Messaging.removeAlertWords>) {
    return this.removeUseCase.execute(payload);
  }
}

/** Alert words: GET/POST/DELETE /users/me/alert_words (the send's matching lives in SendMessage, through AlertWordsCache). */
@Module({
  imports: [MessagingCoreModule],
  controllers: [AlertWordsHandler],
  providers: [ListAlertWords, AddAlertWords, RemoveAlertWords],
})
export class AlertWordsModule {}

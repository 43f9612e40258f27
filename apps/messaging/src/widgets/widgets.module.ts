import { Controller, Module } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { MessagingCoreModule } from '../core/core.module';
import { MessageActionsModule } from '../message-actions/message-actions.module';
import { MessagesModule } from '../messages/messages.module';
import { EditTypingAudience } from './edit-typing-audience.use-case';
import { ReminderContent } from './reminder-content.use-case';
import { SendSubmessage } from './send-submessage.use-case';

@Controller()
export class WidgetsHandler {
  constructor(
    private readonly sendSubmessage: SendSubmessage,
    private readonly reminderContent: ReminderContent,
    private readonly editTypingAudience: EditTypingAudience,
  ) {}

  @CommandHandler(Messaging.sendSubmessage)
  submessage(@Payload() payload: PayloadOf<typeof Messaging.sendSubmessage>) {
    return this.sendSubmessage.execute(payload);
  }

  @CommandHandler(Messaging.reminderContent)
  reminder(@Payload() payload: PayloadOf<typeof Messaging.reminderContent>) {
    return this.reminderContent.execute(payload);
  }

  @CommandHandler(Messaging.editTypingAudience)
  editTyping(@Payload() payload: PayloadOf<typeof Messaging.editTypingAudience>) {
    return this.editTypingAudience.execute(payload);
  }
}

/** What a message carries besides itself: widgets' submessages, reminders' text, edit typing's audience. */
@Module({
  imports: [MessagingCoreModule, MessagesModule, MessageActionsModule],
  controllers: [WidgetsHandler],
  providers: [SendSubmessage, ReminderContent, EditTypingAudience],
})
export class WidgetsModule {}

import { Controller, Module } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { MessagingCoreModule } from '../core/core.module';
import { MessageActionsModule } from '../message-actions/message-actions.module';
import { MessagesModule } from '../messages/messages.module';
import { GetReadReceipts } from './get-read-receipts.use-case';
import { ReportMessage } from './report-message.use-case';

@Controller()
export class ModerationHandler {
  constructor(
    private readonly readReceipts: GetReadReceipts,
    private readonly report: ReportMessage,
  ) {}

  @CommandHandler(Messaging.getReadReceipts)
  receipts(@Payload() payload: PayloadOf<typeof Messaging.getReadReceipts>) {
    return this.readReceipts.execute(payload);
  }

  @CommandHandler(Messaging.reportMessage)
  reportMessage(@Payload() payload: PayloadOf<typeof Messaging.reportMessage>) {
    return this.report.execute(payload);
  }
}

/** Read receipts and message reports: GET /messages/{message_id}/read_receipts, POST /messages/{message_id}/report. */
@Module({
  imports: [MessagingCoreModule, MessagesModule, MessageActionsModule],
  controllers: [ModerationHandler],
  providers: [GetReadReceipts, ReportMessage],
})
export class ModerationModule {}

import { Controller } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { CheckMessage } from './check-message.use-case';
import { GetMessages } from './get-messages.use-case';
import { ReadableMessages } from './readable-messages.use-case';
import { SendMessage } from './send-message.use-case';
import { SendScheduledMessage } from './send-scheduled-message.use-case';
import { UpdateMessageFlags } from './update-message-flags.use-case';
import { MarkAllAsRead } from './mark-all-as-read.use-case';
import { MarkChannelAsRead } from './mark-channel-as-read.use-case';
import { MessagesMatchNarrow } from './messages-match-narrow.use-case';
import { UpdateMessageFlagsForNarrow } from './update-message-flags-for-narrow.use-case';

@Controller()
export class MessagesHandler {
  constructor(
    private readonly sendMessage: SendMessage,
    private readonly getMessages: GetMessages,
    private readonly checkMessage: CheckMessage,
    private readonly sendScheduledMessage: SendScheduledMessage,
    private readonly readableMessages: ReadableMessages,
    private readonly updateMessageFlags: UpdateMessageFlags,
    private readonly markAllAsRead: MarkAllAsRead,
    private readonly markChannelAsRead: MarkChannelAsRead,
    private readonly updateMessageFlagsForNarrow: UpdateMessageFlagsForNarrow,
    private readonly messagesMatchNarrow: MessagesMatchNarrow,
  ) {}

  @CommandHandler(Messaging.updateMessageFlagsForNarrow)
  updateFlagsForNarrow(@Payload() payload: PayloadOf<typeof Messaging.updateMessageFlagsForNarrow>) {
    return this.updateMessageFlagsForNarrow.execute(payload);
  }

  @CommandHandler(Messaging.messagesMatchNarrow)
  matchesNarrow(@Payload() payload: PayloadOf<typeof Messaging.messagesMatchNarrow>) {
    return this.messagesMatchNarrow.execute(payload);
  }

  @CommandHandler(Messaging.markAllAsRead)
  markAll(@Payload() payload: PayloadOf<typeof Messaging.markAllAsRead>) {
    return this.markAllAsRead.execute(payload);
  }

  @CommandHandler(Messaging.markChannelAsRead)
  markChannel(@Payload() payload: PayloadOf<typeof Messaging.markChannelAsRead>) {
    return this.markChannelAsRead.execute(payload);
  }

  @CommandHandler(Messaging.updateMessageFlags)
  updateFlags(@Payload() payload: PayloadOf<typeof Messaging.updateMessageFlags>) {
    return this.updateMessageFlags.execute(payload);
  }

  @CommandHandler(Messaging.checkMessage)
  check(@Payload() payload: PayloadOf<typeof Messaging.checkMessage>) {
    return this.checkMessage.execute(payload);
  }

  @CommandHandler(Messaging.sendScheduledMessage)
  sendScheduled(@Payload() payload: PayloadOf<typeof Messaging.sendScheduledMessage>) {
    return this.sendScheduledMessage.execute(payload);
  }

  @CommandHandler(Messaging.sendMessage)
  send(@Payload() payload: PayloadOf<typeof Messaging.sendMessage>) {
    return this.sendMessage.execute(payload);
  }

  @CommandHandler(Messaging.getMessages)
  list(@Payload() payload: PayloadOf<typeof Messaging.getMessages>) {
    return this.getMessages.execute(payload);
  }

  @CommandHandler(Messaging.readableMessages)
  readable(@Payload() payload: PayloadOf<typeof Messaging.readableMessages>) {
    return this.readableMessages.execute(payload);
  }
}

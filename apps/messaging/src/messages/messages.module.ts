import { Module } from '@nestjs/common';
import { MessagingCoreModule } from '../core/core.module';
import { CheckMessage } from './check-message.use-case';
import { GetMessages } from './get-messages.use-case';
import { MessagesHandler } from './messages.handler';
import { ReadableMessages } from './readable-messages.use-case';
import { SendMessage } from './send-message.use-case';
import { ChannelSendContexts } from './channel-send-contexts';
import { AlertWordsCache } from '../alert-words/alert-words-cache';
import { MutersCache } from '../muted-users/muters-cache';
import { SendScheduledMessage } from './send-scheduled-message.use-case';
import { StoredSenders } from './stored-senders';
import { UpdateMessageFlags } from './update-message-flags.use-case';
import { MarkAllAsRead } from './mark-all-as-read.use-case';
import { MarkChannelAsRead } from './mark-channel-as-read.use-case';
import { MessagesMatchNarrow } from './messages-match-narrow.use-case';
import { NarrowQuery } from './narrow-query';
import { UpdateMessageFlagsForNarrow } from './update-message-flags-for-narrow.use-case';

/** Sending and reading messages. */
@Module({
  imports: [MessagingCoreModule],
  controllers: [MessagesHandler],
  providers: [
    SendMessage,
    ChannelSendContexts,
    AlertWordsCache,
    MutersCache,
    GetMessages,
    CheckMessage,
    SendScheduledMessage,
    StoredSenders,
    ReadableMessages,
    UpdateMessageFlags,
    MarkAllAsRead,
    MarkChannelAsRead,
    NarrowQuery,
    UpdateMessageFlagsForNarrow,
    MessagesMatchNarrow,
  ],
  exports: [SendScheduledMessage, SendMessage, StoredSenders],
})
export class MessagesModule {}

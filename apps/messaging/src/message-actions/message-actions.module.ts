import { Module } from '@nestjs/common';
import { MessagingCoreModule } from '../core/core.module';
import { MessagesModule } from '../messages/messages.module';
import { ActedMessages } from './acted-message';
import { ActionPermissions } from './action-permissions';
import { AddReaction } from './add-reaction.use-case';
import { DeleteMessage } from './delete-message.use-case';
import { GetMessageHistory } from './get-message-history.use-case';
import { GetMessage } from './get-message.use-case';
import { MessageActionsHandler } from './message-actions.handler';
import { MoveNotices } from './move-notices';
import { ReactionEmoji } from './reaction-emoji';
import { RemoveReaction } from './remove-reaction.use-case';
import { RenderMessage } from './render-message.use-case';
import { UpdateMessage } from './update-message.use-case';

/** What one does to a sent message: read it, edit or move it, delete it, react to it; and rendering a draft. */
@Module({
  imports: [MessagingCoreModule, MessagesModule],
  controllers: [MessageActionsHandler],
  providers: [
    ActedMessages,
    ActionPermissions,
    ReactionEmoji,
    MoveNotices,
    GetMessage,
    UpdateMessage,
    DeleteMessage,
    GetMessageHistory,
    AddReaction,
    RemoveReaction,
    RenderMessage,
  ],
  exports: [ActedMessages, ActionPermissions],
})
export class MessageActionsModule {}

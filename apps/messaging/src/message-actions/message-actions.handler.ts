import { Controller } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { AddReaction } from './add-reaction.use-case';
import { DeleteMessage } from './delete-message.use-case';
import { GetMessageHistory } from './get-message-history.use-case';
import { GetMessage } from './get-message.use-case';
import { RemoveReaction } from './remove-reaction.use-case';
import { RenderMessage } from './render-message.use-case';
import { UpdateMessage } from './update-message.use-case';

@Controller()
export class MessageActionsHandler {
  constructor(
    private readonly getMessage: GetMessage,
    private readonly updateMessage: UpdateMessage,
    private readonly deleteMessage: DeleteMessage,
    private readonly getMessageHistory: GetMessageHistory,
    private readonly addReaction: AddReaction,
    private readonly removeReaction: RemoveReaction,
    private readonly renderMessage: RenderMessage,
  ) {}

  @CommandHandler(Messaging.getMessage)
  get(@Payload() payload: PayloadOf<typeof Messaging.getMessage>) {
    return this.getMessage.execute(payload);
  }

  @CommandHandler(Messaging.updateMessage)
  update(@Payload() payload: PayloadOf<typeof Messaging.updateMessage>) {
    return this.updateMessage.execute(payload);
  }

  @CommandHandler(Messaging.deleteMessage)
  delete(@Payload() payload: PayloadOf<typeof Messaging.deleteMessage>) {
    return this.deleteMessage.execute(payload);
  }

  @CommandHandler(Messaging.getMessageHistory)
  history(@Payload() payload: PayloadOf<typeof Messaging.getMessageHistory>) {
    return this.getMessageHistory.execute(payload);
  }

  @CommandHandler(Messaging.addReaction)
  react(@Payload() payload: PayloadOf<typeof Messaging.addReaction>) {
    return this.addReaction.execute(payload);
  }

  @CommandHandler(Messaging.removeReaction)
  unreact(@Payload() payload: PayloadOf<typeof Messaging.removeReaction>) {
    return this.removeReaction.execute(payload);
  }

  @CommandHandler(Messaging.renderMessage)
  render(@Payload() payload: PayloadOf<typeof Messaging.renderMessage>) {
    return this.renderMessage.execute(payload);
  }
}

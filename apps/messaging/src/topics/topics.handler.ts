import { Controller } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { DeleteTopic } from './delete-topic.use-case';
import { ListTopics } from './list-topics.use-case';
import { MarkTopicAsRead } from './mark-topic-as-read.use-case';
import { MuteTopic } from './mute-topic.use-case';
import { UpdateUserTopic } from './update-user-topic.use-case';

@Controller()
export class TopicsHandler {
  constructor(
    private readonly listTopicsUseCase: ListTopics,
    private readonly markTopicAsReadUseCase: MarkTopicAsRead,
    private readonly deleteTopicUseCase: DeleteTopic,
    private readonly updateUserTopicUseCase: UpdateUserTopic,
    private readonly muteTopicUseCase: MuteTopic,
  ) {}

  @CommandHandler(Messaging.updateUserTopic)
  updateUserTopic(@Payload() payload: PayloadOf<typeof Messaging.updateUserTopic>) {
    return this.updateUserTopicUseCase.execute(payload);
  }

  @CommandHandler(Messaging.muteTopic)
  muteTopic(@Payload() payload: PayloadOf<typeof Messaging.muteTopic>) {
    return this.muteTopicUseCase.execute(payload);
  }

  @CommandHandler(Messaging.listTopics)
  listTopics(@Payload() payload: PayloadOf<typeof Messaging.listTopics>) {
    return this.listTopicsUseCase.execute(payload);
  }

  @CommandHandler(Messaging.markTopicAsRead)
  markTopicAsRead(@Payload() payload: PayloadOf<typeof Messaging.markTopicAsRead>) {
    return this.markTopicAsReadUseCase.execute(payload);
  }

  @CommandHandler(Messaging.deleteTopic)
  deleteTopic(@Payload() payload: PayloadOf<typeof Messaging.deleteTopic>) {
    return this.deleteTopicUseCase.execute(payload);
  }
}

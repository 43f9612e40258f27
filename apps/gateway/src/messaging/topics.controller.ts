import { Controller } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { ApiCommandOf } from '../http/api-command.decorator';
import { Route } from '../http/route.decorator';

/** Topics routes, served by messaging. */
@Controller()
export class TopicsController {
  constructor(private readonly commands: CommandClient) {}

  @Route(Messaging.listTopics)
  listTopics(@ApiCommandOf(Messaging.listTopics) command: PayloadOf<typeof Messaging.listTopics>) {
    return this.commands.call(Messaging.listTopics, command);
  }

  @Route(Messaging.markTopicAsRead)
  markTopicAsRead(@ApiCommandOf(Messaging.markTopicAsRead) command: PayloadOf<typeof Messaging.markTopicAsRead>) {
    return this.commands.call(Messaging.markTopicAsRead, command);
  }

  /** Waits while messaging deletes, up to its time budget, which stays inside this call's timeout. */
  @Route(Messaging.deleteTopic)
  deleteTopic(@ApiCommandOf(Messaging.deleteTopic) command: PayloadOf<typeof Messaging.deleteTopic>) {
    return this.commands.call(Messaging.deleteTopic, command);
  }
}

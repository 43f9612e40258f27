import { Controller, Get, Post } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { ApiCommandOf } from '../http/api-command.decorator';
import { ApiCommandWithPath } from '../http/path-params';

/** Topics routes, served by messaging. */
@Controller()
export class TopicsController {
  constructor(private readonly commands: CommandClient) {}

  @Get('users/me/:stream_id/topics')
  listTopics(@ApiCommandWithPath(Messaging.listTopics, 'stream_id') command: PayloadOf<typeof Messaging.listTopics>) {
    return this.commands.call(Messaging.listTopics, command);
  }

  @Post('mark_topic_as_read')
  markTopicAsRead(@ApiCommandOf(Messaging.markTopicAsRead) command: PayloadOf<typeof Messaging.markTopicAsRead>) {
    return this.commands.call(Messaging.markTopicAsRead, command);
  }

  /** Waits while messaging deletes, up to its time budget, which stays inside this call's timeout. */
  @Post('streams/:stream_id/delete_topic')
  deleteTopic(@ApiCommandWithPath(Messaging.deleteTopic, 'stream_id') command: PayloadOf<typeof Messaging.deleteTopic>) {
    return this.commands.call(Messaging.deleteTopic, command);
  }
}

import { Injectable } from '@nestjs/common';
import type { Messaging, PayloadOf, ResultOf } from '@teamchat/contracts';
import { ActedMessages } from './acted-message';

type Command = PayloadOf<typeof Messaging.getMessage>;

/** GET /messages/{message_id} (zerver/views/message_fetch.py json_fetch_raw_message). */
@Injectable()
export class GetMessage {
  constructor(private readonly messages: ActedMessages) {}

  async execute({ realm, user, params }: Command): Promise<ResultOf<typeof Messaging.getMessage>> {
    const row = await this.messages.readable(realm, user, params.message_id);
    const message = await this.messages.record(realm, row, {
      applyMarkdown: params.apply_markdown,
      allowEmptyTopic: params.allow_empty_topic_name,
    });
    return { raw_content: row.content, message };
  }
}

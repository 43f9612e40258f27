import { Injectable } from '@nestjs/common';
import { PgService } from '@teamchat/db';
import type { Tx } from './transactions';
import { insertSubmessage, submessageState, submessagesOfMessages, type SubmessageRow } from './submessages.sql';

export type { SubmessageRow } from './submessages.sql';

/** `submessages`, which messaging owns: widgets' state, in the order it was sent. */
@Injectable()
export class SubmessagesRepository {
  constructor(private readonly pg: PgService) {}

  /** The submessages of these messages, oldest first: one statement for a whole page. */
  async ofMessages(messageIds: number[]): Promise<SubmessageRow[]> {
    return messageIds.length === 0 ? [] : this.pg.run(submessagesOfMessages, messageIds);
  }

  async add(messageId: number, senderId: number, msgType: string, content: string, tx: Tx = this.pg): Promise<SubmessageRow> {
    return (await tx.run(insertSubmessage, messageId, senderId, msgType, content))[0];
  }

  /** Whether the message's sender attached a submessage, and the content of its first widget one (null: none). */
  async state(messageId: number, messageSenderId: number): Promise<{ senderHasOne: boolean; widgetContent: string | null }> {
    return (await this.pg.run(submessageState, messageId, messageSenderId))[0];
  }
}

import { Injectable } from '@nestjs/common';
import type { Tx } from './transactions';
import { PgService } from '@teamchat/db';
import { deleteReaction, insertReaction, reactionsOfMessages } from './reactions.sql';

export interface ReactionRow {
  messageId: number;
  userId: number;
  emojiName: string;
  emojiCode: string;
  reactionType: string;
}

/** `reactions`, which messaging owns. */
@Injectable()
export class ReactionsRepository {
  constructor(private readonly pg: PgService) {}

  /** The reactions of these messages, oldest first. */
  async ofMessages(messageIds: number[]): Promise<ReactionRow[]> {
    return messageIds.length === 0 ? [] : this.pg.run(reactionsOfMessages, messageIds);
  }

  /** Adds a reaction; false when the user already reacted with that emoji. */
  async add(messageId: number, userId: number, name: string, code: string, type: string, tx: Tx = this.pg): Promise<boolean> {
    return (await tx.run(insertReaction, messageId, userId, name, code, type)).length > 0;
  }

  /** Removes a user's reaction; its name, null when there was none. */
  async remove(messageId: number, userId: number, code: string, type: string, tx: Tx = this.pg): Promise<string | null> {
    return (await tx.run(deleteReaction, messageId, userId, code, type))[0]?.emojiName ?? null;
  }
}

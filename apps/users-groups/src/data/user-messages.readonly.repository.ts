import { Injectable } from '@nestjs/common';
import { PgService, statement } from '@teamchat/db';

/**
 * The newest message the user has received (Zulip's deprecated max_message_id), read from
 * messaging's user_messages: read-only, the one read of that table here.
 */
const maxMessageIdOf = statement<{ maxMessageId: number | null }, [userId: number]>(
  'user_admin.max_message_id_of',
  `SELECT max(message_id) AS "maxMessageId" FROM user_messages WHERE user_id = $1`,
);

/** Messaging's `user_messages`, read only (users-groups never writes there). */
@Injectable()
export class UserMessagesReadonlyRepository {
  constructor(private readonly pg: PgService) {}

  /** The id of the newest message the user received, or null when none. */
  async maxMessageIdOf(userId: number): Promise<number | null> {
    const [{ maxMessageId }] = await this.pg.run(maxMessageIdOf, userId);
    return maxMessageId;
  }
}

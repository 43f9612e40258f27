import { Injectable } from '@nestjs/common';
import type { PayloadOf } from '@teamchat/contracts';
import { Messaging } from '@teamchat/contracts';
import { PgService, statement } from '@teamchat/db';
import { Role } from '@teamchat/zulip';

/**
 * Which of the given messages a user may read (Zulip's has_message_access): a recipient (a
 * user_messages row); an active subscriber of the channel, from the moment they subscribed when
 * its history is protected; any member but a guest for a public channel. Messages of another
 * organization are never readable. Asked by the uploads service, which lets whoever may read a
 * message that links a file read the file.
 */
const readableMessageIds = statement<{ id: number }, [realmId: number, userId: number, messageIds: number[], guestRole: number]>(
  'messaging.readable_message_ids',
  `SELECT m.id FROM messages m
     JOIN users u ON u.id = $2 AND u.realm_id = $1 AND u.is_active
     LEFT JOIN streams s ON s.id = m.stream_id
     LEFT JOIN subscriptions sub ON sub.stream_id = m.stream_id AND sub.user_id = $2 AND sub.active
    WHERE m.id = ANY($3::int[]) AND m.realm_id = $1
      AND (EXISTS (SELECT 1 FROM user_messages um WHERE um.user_id = $2 AND um.message_id = m.id)
           OR (sub.id IS NOT NULL AND (s.history_public_to_subscribers OR m.id > sub.subscribed_after_message_id))
           OR (s.id IS NOT NULL AND NOT s.invite_only AND u.role <> $4))`,
);

@Injectable()
export class ReadableMessages {
  constructor(private readonly pg: PgService) {}

  async execute({ realmId, userId, messageIds }: PayloadOf<typeof Messaging.readableMessages>): Promise<{ messageIds: number[] }> {
    if (messageIds.length === 0) return { messageIds: [] };
    const rows = await this.pg.run(readableMessageIds, realmId, userId, messageIds, Role.GUEST);
    return { messageIds: rows.map((row) => row.id) };
  }
}

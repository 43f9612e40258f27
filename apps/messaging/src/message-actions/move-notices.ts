import { Inject, Injectable } from '@nestjs/common';
import { UsersGroups, type AuthUser, type Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandClient, LOGGER } from '@teamchat/platform';
import type { Logger } from 'pino';
import { RESOLVED_TOPIC_PREFIX } from '@teamchat/zulip';
import { SendScheduledMessage } from '../messages/send-scheduled-message.use-case';

type Command = PayloadOf<typeof Messaging.updateMessage>;

export interface Move {
  oldStream: { id: number; name: string };
  oldTopic: string;
  newStream: { id: number; name: string };
  newTopic: string;
  count: number;
  wholeTopic: boolean;
}


/**
 * The notices the organization's notification bot posts after a move (Zulip's
 * send_message_moved_breadcrumbs and maybe_send_resolve_topic_notifications): in the old and
 * new topics as the request asks, or, for resolving and unresolving, one notice in the topic.
 * Sent through the same use case as scheduled messages, as the bot. Best effort: a notice that
 * cannot be sent (the bot may not post in a private channel) is logged; the move stands.
 */
@Injectable()
export class MoveNotices {
  constructor(
    private readonly commands: CommandClient,
    private readonly send: SendScheduledMessage,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async afterMove({ realm, params, requestId }: Command, mover: AuthUser, move: Move): Promise<void> {
    const who = `@_**${mover.fullName}|${mover.id}**`;
    const notices: { streamId: number; topic: string; content: string }[] = [];
    const sameChannel = move.oldStream.id === move.newStream.id;
    if (sameChannel && move.newTopic === RESOLVED_TOPIC_PREFIX + move.oldTopic) {
      notices.push({ streamId: move.newStream.id, topic: move.newTopic, content: `${who} has marked this topic as resolved.` });
    } else if (sameChannel && move.oldTopic === RESOLVED_TOPIC_PREFIX + move.newTopic) {
      notices.push({ streamId: move.newStream.id, topic: move.newTopic, content: `${who} has marked this topic as unresolved.` });
    } else {
      const link = (stream: { name: string }, topic: string) => `#**${stream.name}>${topic}**`;
      const what = move.wholeTopic ? 'This topic was' : move.count === 1 ? 'A message was' : `${move.count} messages were`;
      if (params.send_notification_to_new_thread) {
        notices.push({
          streamId: move.newStream.id,
          topic: move.newTopic,
          content: `${what} moved here from ${link(move.oldStream, move.oldTopic)} by ${who}.`,
        });
      }
      if (params.send_notification_to_old_thread) {
        const from = move.wholeTopic ? 'This topic was moved to' : `${what} moved from this topic to`;
        notices.push({ streamId: move.oldStream.id, topic: move.oldTopic, content: `${from} ${link(move.newStream, move.newTopic)} by ${who}.` });
      }
    }
    if (notices.length === 0) return;
    try {
      const { userId: botId } = await this.commands.call(UsersGroups.notificationBot, { realmId: realm.id });
      for (const [index, notice] of notices.entries()) {
        await this.send.execute({
          realmId: realm.id,
          senderId: botId,
          client: 'Internal',
          readBySender: null,
          requestId: `${requestId}-notice-${index}`,
          type: 'stream',
          to: String(notice.streamId),
          topic: notice.topic,
          content: notice.content,
        });
      }
    } catch (err) {
      this.logger.warn({ err, requestId }, 'message move notice not sent');
    }
  }
}

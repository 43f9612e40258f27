import { Injectable } from '@nestjs/common';
import type { Messaging } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { MemberProfiles } from '../core/member-profiles';
import { TOPIC_DELETION } from './topic-deletion.settings';
import { messagesDeletedEvent, type OutgoingEvent } from '../core/outgoing-events';
import { firstMessageChangedEvent } from './topic-events';
import { MessagesRepository, type DeletedTopicBatch } from '../data/messages.repository';
import type { ColdTx } from '../data/transactions';

type LockedChannel = NonNullable<DeletedTopicBatch['channel']>;

export interface BatchOutcome {
  /** Messages the batch found still to delete; 0 means the topic is done. */
  found: number;
  deleted: number;
}

/** What the events of a batch say, and to whom (before leaving out the deactivated). */
interface Announcement {
  audience: number[];
  channel: { id: number; name: string };
  messageIds: number[];
  topic: string;
  /** Present when the channel's first_message_id changed. */
  firstMessageId?: number | null;
}

/**
 * One batch of a topic deletion (zerver/actions/message_delete.py do_delete_messages): the
 * newest messages of the topic that still exist, deleted in one transaction with their
 * UserMessage rows (in one statement, so a batch costs few round trips), the channel's
 * first_message_id moved on if its oldest message went (MessagesRepository.deleteTopicBatch),
 * and one set of events written with it (outbox), published after the commit. It names no message ids up front, so running it
 * again after a crash deletes only what is left, and each id is announced by the run that
 * deleted it.
 */
@Injectable()
export class DeleteTopicBatch {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly profiles: MemberProfiles,
    private readonly outbox: EventOutbox,
  ) {}

  async execute(job: Messaging.TopicDeletionJob, batchSize: number = TOPIC_DELETION.batchSize): Promise<BatchOutcome> {
    return this.outbox.runCold(async (tx) => {
      const batch = await this.messages.deleteTopicBatch(job, batchSize, tx);
      // ascending, as Zulip sends them since feature level 393
      const outcome = { found: batch.found, deleted: batch.messageIds.length };
      if (batch.messageIds.length === 0 || !batch.channel) return { value: outcome, events: [] };
      const announcement: Announcement = {
        audience: this.audience(batch.channel, batch.receivers),
        channel: { id: job.streamId, name: batch.channel.name },
        messageIds: batch.messageIds,
        topic: batch.topic ?? '',
        ...(batch.firstMessageId !== undefined ? { firstMessageId: batch.firstMessageId } : {}),
      };
      return { value: outcome, events: await this.announcement(tx, job.realmId, announcement) };
    }, undefined, TOPIC_DELETION.batchTransaction);
  }

  /**
   * Who is told (Zulip's event_recipient_ids_for_action_on_messages): with protected history,
   * subscribers who received the messages; in a private channel, its subscribers; in a public
   * one, its subscribers and anyone else who received them.
   */
  private audience(channel: LockedChannel, receivers: number[]): number[] {
    if (!channel.historyPublicToSubscribers) {
      const subscribed = new Set(channel.subscribers);
      return receivers.filter((id) => subscribed.has(id));
    }
    if (channel.inviteOnly) return channel.subscribers;
    return [...new Set([...channel.subscribers, ...receivers])];
  }

  /** The batch's events, to the active users among its audience (read in the batch's transaction). */
  private async announcement(tx: ColdTx, realmId: number, a: Announcement): Promise<OutgoingEvent[]> {
    const users = (await this.profiles.activeIds(realmId, a.audience, tx)).sort((x, y) => x - y);
    if (users.length === 0) return [];
    const events: OutgoingEvent[] = [];
    if (a.firstMessageId !== undefined) events.push(firstMessageChangedEvent(realmId, users, a.channel, a.firstMessageId));
    events.push(messagesDeletedEvent(realmId, users, { messageIds: a.messageIds, streamId: a.channel.id, topic: a.topic }));
    return events;
  }
}

import { Injectable } from '@nestjs/common';
import type { Messaging } from '@teamchat/contracts';
import { Prisma, PrismaService } from '@teamchat/db';
import { EventBus } from '@teamchat/platform';
import { MemberProfiles } from '../core/member-profiles';
import { TOPIC_DELETION } from './topic-deletion.settings';
import { messagesDeletedEvent, type OutgoingEvent } from '../core/outgoing-events';
import { firstMessageChangedEvent } from './topic-events';
import { inTopic, visibleTo } from '../data/topic-scope';

/** What the batch statement deleted. */
interface DeletedRow {
  found: number;
  /** Ascending; null when nothing was deleted. */
  ids: number[] | null;
  /** The stored topic of the newest deleted message. */
  topic: string | null;
  /** Users who had a UserMessage row for a deleted message. */
  receivers: number[] | null;
}

/** The channel, locked for the rest of the batch. */
interface ChannelRow {
  name: string;
  invite_only: boolean;
  history_public_to_subscribers: boolean;
  first_message_id: number | null;
  subscribers: number[];
}

export interface BatchOutcome {
  /** Messages the batch found still to delete; 0 means the topic is done. */
  found: number;
  deleted: number;
}

/** What the events of a committed batch say, and to whom (before leaving out the deactivated). */
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
 * first_message_id moved on if its oldest message went, and one set of events after the
 * commit. It names no message ids up front, so running it again after a crash deletes only
 * what is left, and each id is announced by the run that deleted it.
 */
@Injectable()
export class DeleteTopicBatch {
  constructor(
    private readonly prisma: PrismaService,
    private readonly profiles: MemberProfiles,
    private readonly events: EventBus,
  ) {}

  async execute(job: Messaging.TopicDeletionJob, batchSize: number = TOPIC_DELETION.batchSize): Promise<BatchOutcome> {
    const { announcement, ...outcome } = await this.prisma.$transaction(async (tx) => this.deleteBatch(tx, job, batchSize), {
      maxWait: 10_000,
      timeout: 60_000,
    });
    if (announcement) await this.announce(job.realmId, announcement);
    return outcome;
  }

  private async deleteBatch(
    tx: Prisma.TransactionClient,
    job: Messaging.TopicDeletionJob,
    batchSize: number,
  ): Promise<BatchOutcome & { announcement?: Announcement }> {
    // Lock the newest messages still there (rows another run is deleting are waited for, then
    // skipped), delete them and their UserMessage rows, and collect who had them.
    const [deleted] = await tx.$queryRaw<DeletedRow[]>`
      WITH doomed AS (
        SELECT m.id FROM messages m
        WHERE m.realm_id = ${job.realmId} AND ${inTopic('m', job.streamId, job.topic)}
          AND ${visibleTo('m', job.requestedBy, job.visibleFrom)}
        ORDER BY m.id DESC
        LIMIT ${batchSize}
        FOR UPDATE OF m
      ), receivers AS (
        DELETE FROM user_messages um USING doomed WHERE um.message_id = doomed.id RETURNING um.user_id
      ), gone AS (
        DELETE FROM messages m USING doomed WHERE m.id = doomed.id RETURNING m.id, m.topic
      )
      SELECT (SELECT count(*) FROM doomed)::int AS found,
        (SELECT array_agg(id ORDER BY id) FROM gone) AS ids,
        (SELECT topic FROM gone ORDER BY id DESC LIMIT 1) AS topic,
        (SELECT array_agg(DISTINCT user_id) FROM receivers) AS receivers`;
    const messageIds = deleted.ids ?? []; // ascending, as Zulip sends them since feature level 393
    const outcome = { found: deleted.found, deleted: messageIds.length };
    if (messageIds.length === 0) return outcome;

    // The channel row is held to the commit, so two topics of one channel deleted at once
    // cannot leave first_message_id pointing at a deleted message.
    const [channel] = await tx.$queryRaw<ChannelRow[]>`
      SELECT s.name, s.invite_only, s.history_public_to_subscribers, s.first_message_id,
        ARRAY(SELECT user_id FROM subscriptions WHERE stream_id = s.id AND active) AS subscribers
      FROM streams s WHERE s.id = ${job.streamId}
      FOR UPDATE OF s`;
    if (!channel) return outcome;

    const announcement: Announcement = {
      audience: this.audience(channel, deleted.receivers ?? []),
      channel: { id: job.streamId, name: channel.name },
      messageIds,
      topic: deleted.topic ?? '',
    };
    if (channel.first_message_id !== null && messageIds.includes(channel.first_message_id)) {
      const [{ first }] = await tx.$queryRaw<{ first: number | null }[]>`
        SELECT min(id) AS first FROM messages WHERE realm_id = ${job.realmId} AND stream_id = ${job.streamId}`;
      await tx.$executeRaw`UPDATE streams SET first_message_id = ${first} WHERE id = ${job.streamId}`;
      announcement.firstMessageId = first;
    }
    return { ...outcome, announcement };
  }

  /**
   * Who is told (Zulip's event_recipient_ids_for_action_on_messages): with protected history,
   * subscribers who received the messages; in a private channel, its subscribers; in a public
   * one, its subscribers and anyone else who received them.
   */
  private audience(channel: ChannelRow, receivers: number[]): number[] {
    if (!channel.history_public_to_subscribers) {
      const subscribed = new Set(channel.subscribers);
      return receivers.filter((id) => subscribed.has(id));
    }
    if (channel.invite_only) return channel.subscribers;
    return [...new Set([...channel.subscribers, ...receivers])];
  }

  /** The batch's events, once committed, to the active users among its audience. */
  private async announce(realmId: number, a: Announcement): Promise<void> {
    const users = (await this.profiles.activeIds(realmId, a.audience)).sort((x, y) => x - y);
    if (users.length === 0) return;
    const events: OutgoingEvent[] = [];
    if (a.firstMessageId !== undefined) events.push(firstMessageChangedEvent(realmId, users, a.channel, a.firstMessageId));
    events.push(messagesDeletedEvent(realmId, users, { messageIds: a.messageIds, streamId: a.channel.id, topic: a.topic }));
    await this.events.publishAll(events);
  }
}

import { Injectable } from '@nestjs/common';
import { MessagingEvents, type AuthUser, type ClientEvent, type EventDef, type Messaging, type RealmRef } from '@teamchat/contracts';
import { PgService, isStoredId } from '@teamchat/db';
import { Role, badRequest } from '@teamchat/zulip';
import { MemberProfilesReadonly } from '../core/member-profiles.readonly';
import { channelNames, directMessageGroups, messageForUser, messagesAudience, reactionsOfMessages, type ActionableMessageRow } from '../core/messaging.sql';
import { flagNames } from '../messages/message-flags';
import { toMessageRecord } from '../messages/message-record';

/** An event ready for `EventBus.publishAll`, published once the change has committed. */
export interface OutgoingEvent {
  def: EventDef<never>;
  payload: ClientEvent;
}

// publishAll takes any event definition; the payload's type is checked here instead.
export const outgoing = (def: EventDef<ClientEvent>, payload: ClientEvent): OutgoingEvent => ({
  def: def as unknown as EventDef<never>,
  payload,
});

export type Reaction = Messaging.MessageRecord['reactions'][number];

/**
 * What every message action shares: finding the message the caller acts on (Zulip's
 * access_message: "Invalid message(s)" for one that does not exist, is another organization's
 * or that the caller may not read), who hears of a change to it, and its record as clients see it.
 */
@Injectable()
export class ActedMessages {
  constructor(
    private readonly pg: PgService,
    private readonly profiles: MemberProfilesReadonly,
  ) {}

  /** The message, if the caller may read it. */
  async readable(realm: RealmRef, caller: AuthUser, messageId: number): Promise<ActionableMessageRow> {
    const [row] = isStoredId(messageId) ? await this.pg.run(messageForUser, realm.id, messageId, caller.id, Role.GUEST) : [];
    if (!row || !row.readable) throw badRequest('Invalid message(s)');
    return row;
  }

  /**
   * Who is told of a change to these messages, each with their flags on `message` (Zulip gives
   * subscribers reading through the channel's history `read`).
   */
  async audience(messageIds: number[], message: Pick<ActionableMessageRow, 'id' | 'streamId'>): Promise<{ id: number; flags: string[] }[]> {
    const rows = await this.pg.run(messagesAudience, messageIds, message.id, message.streamId);
    return rows.map((row) => ({ id: row.userId, flags: row.flags === null ? ['read'] : flagNames(row.flags) }));
  }

  /** The messages' reactions as message records list them, by message id. */
  async reactions(messageIds: number[]): Promise<Map<number, Reaction[]>> {
    const byMessage = new Map<number, Reaction[]>();
    if (messageIds.length === 0) return byMessage;
    for (const row of await this.pg.run(reactionsOfMessages, messageIds)) {
      const list = byMessage.get(row.messageId) ?? [];
      list.push({ emoji_name: row.emojiName, emoji_code: row.emojiCode, reaction_type: row.reactionType as Reaction['reaction_type'], user_id: row.userId });
      byMessage.set(row.messageId, list);
    }
    return byMessage;
  }

  /** One message as GET /messages shows it, with the caller's flags. */
  async record(
    realm: RealmRef,
    row: ActionableMessageRow,
    options: { applyMarkdown: boolean; allowEmptyTopic: boolean },
  ): Promise<Messaging.MessageRecord & { flags: string[] }> {
    const [channels, groups, reactions] = await Promise.all([
      row.streamId !== null ? this.pg.run(channelNames, [row.streamId]) : [],
      row.dmGroupId !== null ? this.pg.run(directMessageGroups, [row.dmGroupId]) : [],
      this.reactions([row.id]),
    ]);
    const profiles = await this.profiles.of(realm.host, [row.senderId, ...groups.flatMap((group) => group.memberIds)]);
    const record = toMessageRecord(row, {
      realm,
      profiles,
      channelNames: new Map(channels.map((channel) => [channel.id, channel.name])),
      dmMembers: new Map(groups.map((group) => [group.id, group.memberIds])),
      applyMarkdown: options.applyMarkdown,
      clientGravatar: false,
      allowEmptyTopic: options.allowEmptyTopic,
      reactions,
    });
    return { ...record, flags: row.flags === null ? ['read', 'historical'] : flagNames(row.flags) };
  }
}

/** `delete_message` for messages of one conversation (the bulk form; the fan-out splits it for old clients). */
export const messagesDeletedEvent = (
  realmId: number,
  users: number[],
  deleted: { messageIds: number[]; streamId: number | null; topic: string },
): OutgoingEvent =>
  outgoing(MessagingEvents.messagesDeleted, {
    realmId,
    users,
    event: {
      type: 'delete_message',
      message_ids: deleted.messageIds,
      ...(deleted.streamId !== null
        ? { message_type: 'stream', stream_id: deleted.streamId, topic: deleted.topic }
        : { message_type: 'private' }),
    },
  });

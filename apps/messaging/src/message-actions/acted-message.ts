import { Injectable } from '@nestjs/common';
import type { AuthUser, Messaging, RealmRef } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { Role, badRequest } from '@teamchat/zulip';
import { MemberProfiles } from '../core/member-profiles';
import { ChannelsRepository } from '../data/channels.repository';
import { DirectMessageGroupsRepository } from '../data/direct-message-groups.repository';
import { MessageFlagsRepository } from '../data/message-flags.repository';
import { MessagesRepository, type ActionableMessageRow } from '../data/messages.repository';
import { ReactionsRepository } from '../data/reactions.repository';
import { SubmessagesRepository } from '../data/submessages.repository';
import type { Tx } from '../data/transactions';
import { flagNames } from '../messages/message-flags';
import { submessagesByMessage, toMessageRecord } from '../messages/message-record';

export type Reaction = Messaging.MessageRecord['reactions'][number];

/**
 * What every message action shares: finding the message the caller acts on (Zulip's
 * access_message: "Invalid message(s)" for one that does not exist, is another organization's
 * or that the caller may not read), who hears of a change to it, and its record as clients see it.
 */
@Injectable()
export class ActedMessages {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly flags: MessageFlagsRepository,
    private readonly reactionRows: ReactionsRepository,
    private readonly submessageRows: SubmessagesRepository,
    private readonly channels: ChannelsRepository,
    private readonly dmGroups: DirectMessageGroupsRepository,
    private readonly profiles: MemberProfiles,
  ) {}

  /** The message, if the caller may read it. */
  async readable(realm: RealmRef, caller: AuthUser, messageId: number): Promise<ActionableMessageRow> {
    const row = isStoredId(messageId) ? await this.messages.forUser(realm.id, messageId, caller.id, Role.GUEST) : null;
    if (!row || !row.readable) throw badRequest('Invalid message(s)');
    return row;
  }

  /**
   * Who is told of a change to these messages, each with their flags on `message` (Zulip gives
   * subscribers reading through the channel's history `read`), as `tx`, if given, sees them.
   */
  async audience(messageIds: number[], message: Pick<ActionableMessageRow, 'id' | 'streamId'>, tx?: Tx): Promise<{ id: number; flags: string[] }[]> {
    const rows = await this.flags.audience(messageIds, message.id, message.streamId, tx);
    return rows.map((row) => ({ id: row.userId, flags: row.flags === null ? ['read'] : flagNames(row.flags) }));
  }

  /** The messages' reactions as message records list them, by message id. */
  async reactions(messageIds: number[]): Promise<Map<number, Reaction[]>> {
    const byMessage = new Map<number, Reaction[]>();
    if (messageIds.length === 0) return byMessage;
    for (const row of await this.reactionRows.ofMessages(messageIds)) {
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
    const [channels, groups, reactions, submessages] = await Promise.all([
      row.streamId !== null ? this.channels.names([row.streamId]) : [],
      row.dmGroupId !== null ? this.dmGroups.byIds([row.dmGroupId]) : [],
      this.reactions([row.id]),
      this.submessageRows.ofMessages([row.id]),
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
      submessages: submessagesByMessage(submessages),
    });
    return { ...record, flags: row.flags === null ? ['read', 'historical'] : flagNames(row.flags) };
  }
}

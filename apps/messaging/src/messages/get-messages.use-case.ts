import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging, MessagesPage } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { ChannelsRepository } from '../data/channels.repository';
import { DirectMessageGroupsRepository } from '../data/direct-message-groups.repository';
import { ReactionsRepository } from '../data/reactions.repository';
import { SubmessagesRepository } from '../data/submessages.repository';
import { MemberProfiles } from '../core/member-profiles';
import { flagNames } from './message-flags';
import { submessagesByMessage, toMessageRecord } from './message-record';
import { normalizeNarrow } from './narrow';
import { NEWEST_ANCHOR, NarrowQuery, type NarrowRow, type Scope } from './narrow-query';

type Params = DecodedParams<typeof Messaging.getMessagesParams>;
type Command = UserCommand<Params>;

const MAX_MESSAGES_PER_REQUEST = 5000;

/**
 * GET /messages (zerver/views/message_fetch.py): a window of messages around an anchor in a
 * narrow. A channel narrow on a channel whose history is open to the caller reads the whole
 * channel (messages the caller never received are "historical" and read); anything else reads
 * the caller's own message rows. A search adds each message's highlighted match_content and
 * match_subject.
 */
@Injectable()
export class GetMessages {
  constructor(
    private readonly channels: ChannelsRepository,
    private readonly dmGroups: DirectMessageGroupsRepository,
    private readonly reactionRows: ReactionsRepository,
    private readonly submessageRows: SubmessagesRepository,
    private readonly narrows: NarrowQuery,
    private readonly profiles: MemberProfiles,
  ) {}

  async execute(command: Command): Promise<MessagesPage> {
    const { params } = command;
    if (params.num_before + params.num_after > MAX_MESSAGES_PER_REQUEST) {
      throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_REQUEST}).`);
    }
    const scope = await this.narrows.scope(command.realm, command.user, normalizeNarrow(params.narrow));
    if (params.message_ids) {
      const ids = params.message_ids.filter(isStoredId);
      const rows = await this.narrows.byIds(scope, ids);
      return { messages: await this.records(command, scope, rows) };
    }

    const anchor = await this.resolveAnchor(command, scope);
    const window = await this.narrows.window(scope, {
      anchor,
      numBefore: params.num_before,
      numAfter: params.num_after,
      includeAnchor: params.include_anchor,
    });
    return {
      anchor,
      found_anchor: window.foundAnchor,
      found_oldest: window.foundOldest,
      found_newest: window.foundNewest,
      history_limited: false,
      messages: await this.records(command, scope, window.rows),
    };
  }

  /**
   * Zulip's parse_anchor_value: use_first_unread_anchor (deprecated) wins over anchor; with
   * neither, a `near` term's message, else the newest.
   */
  private async resolveAnchor(command: Command, scope: Scope): Promise<number> {
    const { anchor, use_first_unread_anchor: firstUnreadFlag } = command.params;
    if (!firstUnreadFlag && anchor === undefined && scope.near !== undefined) return scope.near;
    const text = firstUnreadFlag ? 'first_unread' : (anchor ?? 'newest');
    if (text === 'newest') return NEWEST_ANCHOR;
    if (text === 'oldest') return 0;
    if (text === 'first_unread') return this.narrows.firstUnread(scope);
    if (/^\d{1,16}$/.test(text)) return Number(text);
    throw badRequest('Invalid anchor');
  }

  private async records({ realm, params }: Command, scope: Scope, rows: NarrowRow[]): Promise<MessagesPage['messages']> {
    const channelIds = [...new Set(rows.flatMap((row) => (row.streamId !== null ? [row.streamId] : [])))];
    const groupIds = [...new Set(rows.flatMap((row) => (row.dmGroupId !== null ? [row.dmGroupId] : [])))];
    const [channels, groups, matches, reactionRows, submessageRows] = await Promise.all([
      this.channels.names(channelIds),
      this.dmGroups.byIds(groupIds),
      scope.search !== undefined ? this.narrows.highlights(rows.map((row) => row.id), scope.search) : undefined,
      this.reactionRows.ofMessages(rows.map((row) => row.id)),
      // Widgets' submessages: one statement for the page.
      this.submessageRows.ofMessages(rows.map((row) => row.id)),
    ]);
    const reactions = new Map<number, Messaging.MessageRecord['reactions']>();
    for (const r of reactionRows) {
      const reaction = { emoji_name: r.emojiName, emoji_code: r.emojiCode, reaction_type: r.reactionType as 'unicode_emoji', user_id: r.userId };
      reactions.set(r.messageId, [...(reactions.get(r.messageId) ?? []), reaction]);
    }
    const people = [...rows.map((row) => row.senderId), ...groups.flatMap((g) => g.memberIds)];
    const profiles = await this.profiles.of(realm.host, people);
    const context = {
      realm,
      profiles,
      channelNames: new Map(channels.map((c) => [c.id, c.name])),
      dmMembers: new Map(groups.map((g) => [g.id, g.memberIds])),
      applyMarkdown: params.apply_markdown,
      clientGravatar: params.client_gravatar,
      allowEmptyTopic: params.allow_empty_topic_name,
      reactions,
      submessages: submessagesByMessage(submessageRows),
    };
    return rows.map((row) => ({
      ...toMessageRecord(row, context),
      flags: row.flags === null ? ['read', 'historical'] : flagNames(row.flags),
      ...matches?.get(row.id),
    }));
  }
}

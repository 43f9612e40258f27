import { Injectable } from '@nestjs/common';
import type { ApiCommand, Messaging, MessagesPage } from '@teamchat/contracts';
import { MAX_STORED_ID, PgService, Prisma, isStoredId } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { ChannelAccess, firstVisibleMessageId } from '../core/channel-access';
import { channelNames, directMessageGroupByKey, directMessageGroups, reactionsOfMessages } from '../core/messaging.sql';
import { MemberProfilesReadonly } from '../core/member-profiles.readonly';
import { UserDirectoryReadonly } from '../core/user-directory.readonly';
import { Flag, flagNames } from './message-flags';
import { toMessageRecord, type StoredMessage } from './message-record';
import { dmOperand, normalizeNarrow, type Term } from './narrow';

type Params = DecodedParams<typeof Messaging.getMessagesParams>;
type Command = ApiCommand<Params>;

/** Zulip's LARGER_THAN_MAX_MESSAGE_ID, returned as the anchor for "newest". */
const NEWEST_ANCHOR = 10000000000000000;
const MAX_MESSAGES_PER_REQUEST = 5000;

type Row = StoredMessage & { flags: number | null };

/**
 * GET /messages (zerver/views/message_fetch.py): a window of messages around an anchor in a
 * narrow. A channel narrow on a channel whose history is open to the caller reads the whole
 * channel (messages the caller never received are "historical" and read); anything else reads
 * the caller's own message rows.
 */
@Injectable()
export class GetMessages {
  constructor(
    private readonly pg: PgService,
    private readonly channels: ChannelAccess,
    private readonly users: UserDirectoryReadonly,
    private readonly profiles: MemberProfilesReadonly,
  ) {}

  async execute(command: Command): Promise<MessagesPage> {
    const { params } = command;
    if (params.num_before + params.num_after > MAX_MESSAGES_PER_REQUEST) {
      throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_REQUEST}).`);
    }
    const scope = await this.scope(command, normalizeNarrow(params.narrow));
    if (params.message_ids) {
      const ids = params.message_ids.filter(isStoredId);
      const rows = scope.empty || ids.length === 0 ? [] : await this.select(scope, Prisma.sql`m.id IN (${Prisma.join(ids)})`, 'ASC', ids.length);
      return { messages: await this.records(command, rows) };
    }

    const anchor = await this.resolveAnchor(command, scope);
    const [before, at, after] = scope.empty
      ? [[], [], []]
      : await Promise.all([
          params.num_before > 0 ? this.select(scope, Prisma.sql`m.id <= ${Math.min(anchor - 1, MAX_STORED_ID)}`, 'DESC', params.num_before + 1) : [],
          anchor <= MAX_STORED_ID ? this.select(scope, Prisma.sql`m.id = ${anchor}`, 'ASC', 1) : [],
          params.num_after > 0 ? this.select(scope, Prisma.sql`m.id > ${Math.min(anchor, MAX_STORED_ID)}`, 'ASC', params.num_after + 1) : [],
        ]);
    const foundAnchor = at.length > 0;
    const beforeShown = before.slice(0, params.num_before).reverse();
    const afterShown = after.slice(0, params.num_after);
    const rows = [...beforeShown, ...(foundAnchor && params.include_anchor ? at : []), ...afterShown];
    return {
      anchor,
      found_anchor: foundAnchor,
      found_oldest: before.length <= params.num_before,
      found_newest: anchor >= NEWEST_ANCHOR || after.length <= params.num_after,
      history_limited: false,
      messages: await this.records(command, rows),
    };
  }

  private async resolveAnchor(command: Command, scope: Scope): Promise<number> {
    const { anchor, use_first_unread_anchor: firstUnreadFlag } = command.params;
    const text = anchor ?? (firstUnreadFlag ? 'first_unread' : 'newest');
    if (text === 'newest') return NEWEST_ANCHOR;
    if (text === 'oldest') return 0;
    if (text === 'first_unread') {
      if (scope.empty) return NEWEST_ANCHOR;
      const [first] = await this.select(scope, Prisma.sql`um.flags IS NOT NULL AND (um.flags & ${Flag.read}) = 0`, 'ASC', 1);
      return first?.id ?? NEWEST_ANCHOR;
    }
    if (/^\d{1,16}$/.test(text)) return Number(text);
    throw badRequest('Invalid anchor');
  }

  /** Turns the narrow into where the rows come from and the conditions on them. */
  private async scope({ realm, user }: Command, terms: Term[]): Promise<Scope> {
    const viewer = user!;
    const conditions: Prisma.Sql[] = [];
    let channelWide: { streamId: number } | undefined;
    let empty = false;
    for (const term of terms) {
      const not = (sql: Prisma.Sql) => (term.negated ? Prisma.sql`NOT (${sql})` : sql);
      switch (term.operator) {
        case 'channel': {
          const access =
            typeof term.operand === 'number'
              ? await this.channels.readable(realm.id, viewer, term.operand)
              : await this.channels.readableByName(realm.id, viewer, String(term.operand));
          if (!access) throw badRequest(`Invalid narrow operand: unknown channel ${String(term.operand)}`);
          if (term.negated) {
            conditions.push(Prisma.sql`m.stream_id IS DISTINCT FROM ${access.channel.id}`);
          } else if (access.channel.historyPublicToSubscribers) {
            channelWide = { streamId: access.channel.id };
          } else {
            conditions.push(Prisma.sql`m.stream_id = ${access.channel.id} AND m.id >= ${firstVisibleMessageId(access)}`);
          }
          break;
        }
        case 'topic':
          conditions.push(not(Prisma.sql`m.stream_id IS NOT NULL AND lower(m.topic) = lower(${term.operand as string})`));
          break;
        case 'dm': {
          const targets = dmOperand(term.operand);
          const people =
            'ids' in targets
              ? await this.users.byIds(realm.id, targets.ids, (id) => `Invalid narrow operand: unknown user ${id}`)
              : await this.users.byEmails(realm.id, targets.emails, (email) => `Invalid narrow operand: unknown user ${email}`);
          const memberKey = [...new Set([viewer.id, ...people.map((p) => p.id)])].sort((a, b) => a - b).join(',');
          const [group] = await this.pg.run(directMessageGroupByKey, realm.id, memberKey);
          if (!group) empty = true;
          else conditions.push(Prisma.sql`m.dm_group_id = ${group.id}`);
          break;
        }
        case 'is': {
          const flagCondition: Record<string, Prisma.Sql> = {
            unread: Prisma.sql`um.flags IS NOT NULL AND (um.flags & ${Flag.read}) = 0`,
            dm: Prisma.sql`m.dm_group_id IS NOT NULL`,
            private: Prisma.sql`m.dm_group_id IS NOT NULL`,
            mentioned: Prisma.sql`(coalesce(um.flags, 0) & ${Flag.mentioned | Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned}) <> 0`,
            starred: Prisma.sql`(coalesce(um.flags, 0) & ${Flag.starred}) <> 0`,
          };
          conditions.push(not(flagCondition[String(term.operand)]));
          break;
        }
        case 'sender': {
          const [person] =
            typeof term.operand === 'number'
              ? await this.users.byIds(realm.id, [term.operand], (id) => `Invalid narrow operand: unknown user ${id}`)
              : await this.users.byEmails(realm.id, [String(term.operand)], (e) => `Invalid narrow operand: unknown user ${e}`);
          conditions.push(not(Prisma.sql`m.sender_id = ${person.id}`));
          break;
        }
        case 'id': {
          const id = Number(term.operand);
          if (!isStoredId(id)) throw badRequest('Invalid narrow operand: id');
          conditions.push(not(Prisma.sql`m.id = ${id}`));
          break;
        }
      }
    }
    return { viewerId: viewer.id, realmId: realm.id, channelWide, conditions, empty };
  }

  private select(scope: Scope, extra: Prisma.Sql, order: 'ASC' | 'DESC', limit: number): Promise<Row[]> {
    const where = Prisma.join([...scope.conditions, extra, Prisma.sql`m.realm_id = ${scope.realmId}`], ' AND ');
    const orderBy = order === 'ASC' ? Prisma.sql`ORDER BY m.id ASC` : Prisma.sql`ORDER BY m.id DESC`;
    const columns = Prisma.sql`m.id, m.realm_id AS "realmId", m.sender_id AS "senderId", m.stream_id AS "streamId",
      m.dm_group_id AS "dmGroupId", m.topic, m.content, m.rendered_content AS "renderedContent",
      m.sending_client AS "sendingClient", m.date_sent AS "dateSent", m.last_edit_time AS "lastEditTime",
      m.last_move_time AS "lastMoveTime", um.flags`;
    // Composed with Prisma.sql (text and values only) and run through pg: a narrow's shape varies.
    if (scope.channelWide) {
      return this.pg.query<Row>(Prisma.sql`
        SELECT ${columns} FROM messages m
        LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ${scope.viewerId}
        WHERE m.stream_id = ${scope.channelWide.streamId} AND ${where} ${orderBy} LIMIT ${limit}`);
    }
    return this.pg.query<Row>(Prisma.sql`
      SELECT ${columns} FROM user_messages um JOIN messages m ON m.id = um.message_id
      WHERE um.user_id = ${scope.viewerId} AND ${where} ${orderBy} LIMIT ${limit}`);
  }

  private async records({ realm, params }: Command, rows: Row[]): Promise<MessagesPage['messages']> {
    const channelIds = [...new Set(rows.flatMap((row) => (row.streamId !== null ? [row.streamId] : [])))];
    const groupIds = [...new Set(rows.flatMap((row) => (row.dmGroupId !== null ? [row.dmGroupId] : [])))];
    const [channels, groups, reactionRows] = await Promise.all([
      channelIds.length ? this.pg.run(channelNames, channelIds) : [],
      groupIds.length ? this.pg.run(directMessageGroups, groupIds) : [],
      rows.length ? this.pg.run(reactionsOfMessages, rows.map((row) => row.id)) : [],
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
    };
    return rows.map((row) => ({
      ...toMessageRecord(row, context),
      flags: row.flags === null ? ['read', 'historical'] : flagNames(row.flags),
    }));
  }
}

interface Scope {
  viewerId: number;
  realmId: number;
  /** Read the whole channel (history open to the viewer), not just the viewer's rows. */
  channelWide?: { streamId: number };
  conditions: Prisma.Sql[];
  /** The narrow names a conversation that does not exist. */
  empty: boolean;
}

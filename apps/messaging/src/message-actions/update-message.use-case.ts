import { Injectable } from '@nestjs/common';
import { MessagingEvents, linkedPathIds, type AuthUser, type Messaging, type PayloadOf, type ResultOf } from '@teamchat/contracts';
import { ZulipError, badRequest, isModeratorOrAbove, Role } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';
import { MemberProfiles } from '../core/member-profiles';
import { ChannelsRepository } from '../data/channels.repository';
import { EditHistoryRepository } from '../data/edit-history.repository';
import { MessageFlagsRepository } from '../data/message-flags.repository';
import { MessagesRepository, type ActionableMessageRow } from '../data/messages.repository';
import { SubscriptionsRepository } from '../data/subscriptions.repository';
import { TopicsRepository } from '../data/topics.repository';
import { EventOutbox, type OutboxEvent } from '@teamchat/db';
import type { Tx } from '../data/transactions';
import { Flag } from '../messages/message-flags';
import { normalizeContent, normalizeTopic } from '../messages/message-text';
import { RESOLVED_TOPIC_PREFIX } from '@teamchat/zulip';
import { WILDCARD_MENTION_THRESHOLD } from '../messages/send-message.use-case';
import { contentFlags } from '../rendering/content-flags';
import type { MentionEnv } from '../rendering/mentions';
import { firstMessageChangedEvent, visibilityResetEvent } from '../topics/topic-events';
import { messagesDeletedEvent, outgoing, type OutgoingEvent } from '../core/outgoing-events';
import { ActedMessages } from './acted-message';
import { ActionPermissions, checkContentEditable, pastLimit } from './action-permissions';
import { ContentRenderer } from '../core/content-renderer';
import type { EditHistoryEntry } from './edit-history';
import { MoveNotices } from './move-notices';

type Command = PayloadOf<typeof Messaging.updateMessage>;


/** Whether a topic change only resolves or unresolves the topic. */
export function resolution(oldTopic: string, newTopic: string): 'resolved' | 'unresolved' | null {
  if (newTopic === RESOLVED_TOPIC_PREFIX + oldTopic) return 'resolved';
  if (oldTopic === RESOLVED_TOPIC_PREFIX + newTopic) return 'unresolved';
  return null;
}

/** Another edit changed the message between this request's read and its write. */
class EditRaced extends Error {}

interface Written {
  lostAccess: number[];
  /** A whole topic moved: the visibility policies that moved with it. */
  policies: { userId: number; policy: number }[];
  /** The old channel's first message, when it moved with the messages. */
  oldFirst?: { firstMessageId: number | null };
  /** The new channel's first message, when a moved one became it. */
  newFirst?: { firstMessageId: number };
}

interface Plan {
  content?: { raw: string; rendered: string; mentioned: number[]; topicWildcard: boolean; channelWildcard: boolean };
  topic?: string;
  stream?: { id: number; name: string };
  /** A move (not a resolution) by someone below moderator: the stricter of its topic and channel move limits, when there is one. */
  moveLimitSeconds?: number;
}

/**
 * PATCH /messages/{message_id} (zerver/views/message_edit.py, zerver/actions/message_edit.py):
 * a content edit by the sender within the organization's limit, a move to another topic
 * (one message, it and later ones, or the whole topic) or channel by those the organization's
 * and channel's settings allow, resolving and unresolving topics. Every check before any
 * write; the writes are one transaction, which also writes `update_message` (and, for those who
 * lose access in a channel move, `delete_message`) to the outbox; they are published after it commits.
 */
@Injectable()
export class UpdateMessage {
  constructor(
    private readonly messageRows: MessagesRepository,
    private readonly edits: EditHistoryRepository,
    private readonly flags: MessageFlagsRepository,
    private readonly topics: TopicsRepository,
    private readonly channelRows: ChannelsRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly messages: ActedMessages,
    private readonly permissions: ActionPermissions,
    private readonly channels: ChannelAccess,
    private readonly renderer: ContentRenderer,
    private readonly profiles: MemberProfiles,
    private readonly notices: MoveNotices,
    private readonly outbox: EventOutbox,
  ) {}

  async execute(command: Command): Promise<ResultOf<typeof Messaging.updateMessage>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(command);
      } catch (error) {
        if (!(error instanceof EditRaced)) throw error;
        if (attempt >= 5) throw badRequest('The message was being edited by another request; try again.');
      }
    }
  }

  private async attempt(command: Command): Promise<ResultOf<typeof Messaging.updateMessage>> {
    const { realm, params } = command;
    const caller = command.user;
    if (params.topic === undefined && params.content === undefined && params.stream_id === undefined) throw badRequest('Nothing to change');
    if (params.propagate_mode !== 'change_one' && params.topic === undefined && params.stream_id === undefined) {
      throw badRequest('Invalid propagate_mode without topic edit');
    }
    if (params.stream_id !== undefined && params.content !== undefined) throw badRequest('Cannot change message content while changing channel');
    const message = await this.messages.readable(realm, caller, params.message_id);
    if (message.streamId === null) {
      if (params.stream_id !== undefined) throw badRequest('Direct messages cannot be moved to channels.');
      if (params.topic !== undefined) throw badRequest('Direct messages cannot have topics.');
    }

    const plan = await this.plan(command, caller, message);
    const movesTopic = plan.topic !== undefined || plan.stream !== undefined;
    const ids = movesTopic ? await this.movedIds(command, caller, message) : [message.id];
    if (params.propagate_mode === 'change_all' && plan.moveLimitSeconds !== undefined) await this.checkMoveLimit(ids, plan.moveLimitSeconds);
    const now = new Date();
    const timestamp = Math.floor(now.getTime() / 1000);
    // A channel move changes who has the messages: those who had them are read first. Otherwise
    // the audience is read after the edit, in its transaction, so each recipient's flags show
    // their new mentions.
    const before = plan.stream ? await this.messages.audience(ids, message) : [];
    await this.outbox.run(async (tx) => {
      const written = await this.write(tx, message, ids, plan, caller, now, command.params.propagate_mode === 'change_all');
      const after = await this.messages.audience(ids, { id: message.id, streamId: plan.stream?.id ?? message.streamId }, tx);
      return { value: undefined, events: this.announcement(command, caller.id, message, ids, plan, timestamp, before, after, written) };
    }, command.requestId);
    if (message.streamId !== null && movesTopic) {
      await this.notices.afterMove(command, caller, {
        oldStream: { id: message.streamId, name: message.channelName ?? '' },
        oldTopic: message.topic,
        newStream: plan.stream ?? { id: message.streamId, name: message.channelName ?? '' },
        newTopic: plan.topic ?? message.topic,
        count: ids.length,
        wholeTopic: params.propagate_mode === 'change_all',
      });
    }
    return { detached_uploads: [] };
  }

  /** Every check, in Zulip's order; what the edit changes. */
  private async plan(command: Command, caller: AuthUser, message: ActionableMessageRow): Promise<Plan> {
    const { realm, params } = command;
    const settings = await this.permissions.settings(realm.id);
    const plan: Plan = {};

    if (params.content !== undefined) {
      checkContentEditable(settings, message, caller.id);
    }

    if (params.topic !== undefined) {
      const topic = normalizeTopic(params.topic);
      if (topic !== message.topic) {
        if (resolution(message.topic, topic)) {
          if (!(await this.permissions.holds(caller, settings.canResolveTopicsGroupId, message, 'can_resolve_topics_group'))) {
            throw badRequest("You don't have permission to resolve topics in this channel.");
          }
        } else {
          if (!(await this.permissions.holds(caller, settings.canMoveBetweenTopicsGroupId, message, 'can_move_messages_within_channel_group'))) {
            throw badRequest("You don't have permission to edit this message");
          }
          if (!isModeratorOrAbove(caller.role) && pastLimit(message.dateSent, settings.moveWithinLimitSeconds)) {
            throw badRequest("The time limit for editing this message's topic has passed.");
          }
        }
        plan.topic = topic;
      }
    }

    if (params.stream_id !== undefined && params.stream_id !== message.streamId) {
      const target = await this.channels.readable(realm.id, caller, params.stream_id);
      if (!target) throw badRequest('Invalid channel ID');
      if (!(await this.permissions.holds(caller, settings.canMoveBetweenChannelsGroupId, message))) {
        throw badRequest("You don't have permission to move this message");
      }
      if (!isModeratorOrAbove(caller.role) && pastLimit(message.dateSent, settings.moveBetweenLimitSeconds)) {
        throw badRequest("The time limit for editing this message's channel has passed");
      }
      plan.stream = { id: target.channel.id, name: target.channel.name };
    }

    if (!isModeratorOrAbove(caller.role)) {
      const topicMoved = plan.topic !== undefined && !resolution(message.topic, plan.topic);
      const limits = [
        topicMoved ? settings.moveWithinLimitSeconds : null,
        plan.stream && (plan.topic === undefined || topicMoved) ? settings.moveBetweenLimitSeconds : null,
      ].filter((limit): limit is number => limit !== null);
      if (limits.length > 0) plan.moveLimitSeconds = Math.min(...limits);
    }

    if (params.content !== undefined) {
      const raw = params.content.trimEnd() === '' ? '(deleted)' : normalizeContent(params.content);
      const { rendered, mentions } = await this.renderer.render(realm.id, raw, message.senderId);
      if (message.streamId !== null) await this.checkWildcards(realm.id, caller, message, mentions);
      plan.content = {
        raw,
        rendered,
        mentioned: [...mentions.mentionedUserIds],
        topicWildcard: mentions.topicWildcard,
        channelWildcard: mentions.channelWildcard,
      };
    }
    // Nothing may change (the same topic or channel): then the request succeeds and does nothing.
    return plan;
  }

  /** Wildcard mentions in large channels and topics take can_mention_many_users_group, as when sending. */
  private async checkWildcards(realmId: number, caller: AuthUser, message: ActionableMessageRow, mentions: MentionEnv): Promise<void> {
    if (!mentions.channelWildcard && !mentions.topicWildcard) return;
    if (await this.profiles.mayMentionManyUsers(realmId, caller.id)) return;
    if (mentions.channelWildcard && (await this.subscriptions.activeSubscriberIds(message.streamId!)).length > WILDCARD_MENTION_THRESHOLD) {
      throw new ZulipError('STREAM_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use channel wildcard mentions in this channel.');
    }
    if (mentions.topicWildcard) {
      const participants = new Set([...(await this.messageRows.topicSenderIds(message.streamId!, message.topic)), caller.id]);
      if (participants.size > WILDCARD_MENTION_THRESHOLD) {
        throw new ZulipError('TOPIC_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use topic wildcard mentions in this topic.');
      }
    }
  }

  /**
   * Zulip's check_time_limit_for_change_all_propagate_mode: a whole topic moves only when every
   * message of it the caller can move is within the move limit (plus the buffer), else
   * MOVE_MESSAGES_TIME_LIMIT_EXCEEDED says how many of them could.
   */
  private async checkMoveLimit(ids: number[], limitSeconds: number): Promise<void> {
    const now = Date.now();
    const allowed = (await this.messageRows.sendTimes(ids)).filter((row) => !pastLimit(row.dateSent, limitSeconds, now)).map((row) => row.id);
    if (allowed.length === ids.length) return;
    throw new ZulipError(
      'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      `You only have permission to move the ${allowed.length}/${ids.length} most recent messages in this topic.`,
      { first_message_id_allowed_to_move: allowed[0] ?? null, total_messages_in_topic: ids.length, total_messages_allowed_to_move: allowed.length },
    );
  }

  /** The messages a move takes: the one, it and the topic's later ones, or the whole topic. */
  private async movedIds(command: Command, caller: AuthUser, message: ActionableMessageRow): Promise<number[]> {
    const mode = command.params.propagate_mode;
    if (mode === 'change_one') return [message.id];
    const ids = await this.messageRows.topicMessageIdsFrom(
      message.streamId!,
      message.topic,
      mode === 'change_later' ? message.id : 0,
      message.historyPublicToSubscribers ?? true,
      caller.id,
    );
    return ids.includes(message.id) ? ids : [...ids, message.id].sort((a, b) => a - b);
  }

  /** The edit, in one transaction; answers who lost access to the messages and how first messages moved (a channel move). */
  private async write(
    tx: Tx,
    message: ActionableMessageRow,
    ids: number[],
    plan: Plan,
    caller: AuthUser,
    now: Date,
    wholeTopic: boolean,
  ): Promise<Written> {
    if (!plan.content && plan.topic === undefined && !plan.stream) return { lostAccess: [], policies: [] };
    // The message as read must still be the message: a concurrent edit or deletion wins, and this request is checked again.
    const locked = await this.edits.lockForEdit(message.id, tx);
    if (!locked) throw badRequest('Invalid message(s)');
    if (locked.content !== message.content || locked.topic !== message.topic || locked.streamId !== message.streamId) throw new EditRaced();
    const timestamp = Math.floor(now.getTime() / 1000);
    const moveEntry: EditHistoryEntry = {
      user_id: caller.id,
      timestamp,
      ...(plan.topic !== undefined ? { prev_topic: message.topic, topic: plan.topic } : {}),
      ...(plan.stream ? { prev_stream: message.streamId!, stream: plan.stream.id } : {}),
    };
    const ownEntry: EditHistoryEntry = {
      ...moveEntry,
      ...(plan.content ? { prev_content: message.content, prev_rendered_content: message.renderedContent } : {}),
    };
    const found = plan.content ? contentFlags(plan.content.raw, plan.content.rendered) : null;
    const moved = { topic: plan.topic ?? null, streamId: plan.stream?.id ?? null, at: now };
    await this.edits.edit(
      [message.id],
      {
        ...moved,
        content: plan.content?.raw ?? null,
        renderedContent: plan.content?.rendered ?? null,
        entry: ownEntry,
        hasLink: found?.hasLink ?? null,
        hasImage: found?.hasImage ?? null,
        hasAttachment: found?.hasAttachment ?? null,
      },
      tx,
    );
    const others = ids.filter((id) => id !== message.id);
    if (others.length > 0) {
      const unchanged = { content: null, renderedContent: null, hasLink: null, hasImage: null, hasAttachment: null };
      await this.edits.edit(others, { ...moved, ...unchanged, entry: moveEntry }, tx);
    }

    if (plan.content) {
      const participants =
        plan.content.topicWildcard && message.streamId !== null
          ? await this.messageRows.topicSenderIds(message.streamId, message.topic, tx)
          : [];
      await this.flags.setMentionFlags(
        message.id,
        plan.content.mentioned,
        participants,
        plan.content.channelWildcard ? Flag.stream_wildcard_mentioned : 0,
        Flag.mentioned | Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned,
        tx,
      );
    }
    const policies =
      wholeTopic && (plan.topic !== undefined || plan.stream)
        ? await this.topics.movePolicies(message.streamId!, message.topic, plan.stream?.id ?? message.streamId!, plan.topic ?? message.topic, tx)
        : [];
    if (!plan.stream) return { lostAccess: [], policies };
    const lostAccess = await this.flags.moveRecipients(ids, plan.stream.id, Role.GUEST, tx);
    const oldFirst = await this.channelRows.recomputeFirstMessageId(message.streamId!, ids, tx);
    const newFirst = await this.channelRows.lowerFirstMessageId(plan.stream.id, Math.min(...ids), tx);
    return { lostAccess, oldFirst, newFirst, policies };
  }

  /** The edit's events (none when nothing changed). */
  private announcement(
    { realm, params }: Command,
    editorId: number,
    message: ActionableMessageRow,
    ids: number[],
    plan: Plan,
    timestamp: number,
    before: { id: number; flags: string[] }[],
    after: { id: number; flags: string[] }[],
    written: Written,
  ): OutboxEvent[] {
    const lostAccess = written.lostAccess;
    if (!plan.content && plan.topic === undefined && !plan.stream) return [];
    const lost = new Set(lostAccess);
    const recipients = new Map<number, string[]>();
    for (const user of [...before, ...after]) if (!lost.has(user.id) && !recipients.has(user.id)) recipients.set(user.id, user.flags);

    const event: Record<string, unknown> = {
      type: 'update_message',
      user_id: editorId,
      edit_timestamp: timestamp,
      message_id: message.id,
      message_ids: ids,
      rendering_only: false,
    };
    if (message.streamId !== null) Object.assign(event, { stream_id: message.streamId, stream_name: message.channelName ?? '' });
    if (plan.content) {
      Object.assign(event, {
        orig_content: message.content,
        orig_rendered_content: message.renderedContent,
        content: plan.content.raw,
        rendered_content: plan.content.rendered,
        is_me_message: plan.content.raw.startsWith('/me '),
      });
    }
    if (plan.topic !== undefined || plan.stream) {
      Object.assign(event, { orig_subject: message.topic, propagate_mode: params.propagate_mode });
    }
    if (plan.topic !== undefined) Object.assign(event, { subject: plan.topic, topic_links: [] });
    if (plan.stream) Object.assign(event, { new_stream_id: plan.stream.id });

    // One event per set of flags: each recipient sees their own.
    const byFlags = new Map<string, number[]>();
    for (const [userId, flags] of recipients) {
      const key = JSON.stringify(flags);
      byFlags.set(key, [...(byFlags.get(key) ?? []), userId]);
    }
    const events: OutgoingEvent[] = [...byFlags].map(([flags, users]) =>
      outgoing(MessagingEvents.messageUpdated, { realmId: realm.id, users: users.sort((a, b) => a - b), event: { ...event, flags: JSON.parse(flags) as string[] } as never }),
    );
    if (lost.size > 0) {
      events.push(messagesDeletedEvent(realm.id, [...lost].sort((a, b) => a - b), { messageIds: ids, streamId: message.streamId, topic: message.topic }));
    }
    const everyone = [...recipients.keys()].sort((a, b) => a - b);
    if (written.oldFirst) {
      events.push(firstMessageChangedEvent(realm.id, everyone, { id: message.streamId!, name: message.channelName ?? '' }, written.oldFirst.firstMessageId));
    }
    if (written.newFirst && plan.stream) events.push(firstMessageChangedEvent(realm.id, everyone, plan.stream, written.newFirst.firstMessageId));
    for (const { userId, policy } of written.policies) {
      const newStream = plan.stream?.id ?? message.streamId!;
      events.push(visibilityResetEvent(realm.id, userId, message.streamId!, message.topic, new Date(timestamp * 1000)));
      events.push(
        outgoing(MessagingEvents.userTopicChanged, {
          realmId: realm.id,
          users: [userId],
          event: { type: 'user_topic', stream_id: newStream, topic_name: plan.topic ?? message.topic, last_updated: timestamp, visibility_policy: policy },
        }),
      );
    }
    // Files the new content links (the uploads service records links once; old links stay, as detaching is not built).
    const pathIds = plan.content && plan.content.raw.includes('/user_uploads/') ? linkedPathIds(plan.content.raw) : [];
    const links =
      pathIds.length > 0
        ? [{ def: MessagingEvents.attachmentsLinked, payload: { realmId: realm.id, messageId: message.id, senderId: message.senderId, dateSent: message.dateSent.getTime(), pathIds } }]
        : [];
    return [...events, ...links];
  }

}

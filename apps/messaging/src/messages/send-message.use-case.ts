import { Injectable } from '@nestjs/common';
import { Messaging, MessagingEvents, linkedPathIds, type UserCommand } from '@teamchat/contracts';
import { EventOutbox, NEW_MESSAGE_ID, outboxDraft, type StreamModel } from '@teamchat/db';
import { CommandClient, hidesAnyFromGuest, type StoredEvent } from '@teamchat/platform';
import { ZulipError, badRequest, clientComputesAvatar, type DecodedParams } from '@teamchat/zulip';
import { accessFrom, channelFrom } from '../core/channel-access';
import { ChannelsRepository } from '../data/channels.repository';
import { DirectMessageGroupsRepository } from '../data/direct-message-groups.repository';
import type { MemberProfileRow } from '../data/member-profiles.readonly.repository';
import { MessagesRepository } from '../data/messages.repository';
import type { InsertedMessageRow } from '../data/messages.sql';
import { SubmessagesRepository, type SubmessageRow } from '../data/submessages.repository';
import { TopicsRepository } from '../data/topics.repository';
import { Transactions } from '../data/transactions';
import { MemberProfiles } from '../core/member-profiles';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { AlertWordsCache } from '../alert-words/alert-words-cache';
import { alertedUsers } from '../alert-words/alert-word-matcher';
import { MutersCache } from '../muted-users/muters-cache';
import { contentFlags } from '../rendering/content-flags';
import type { MentionEnv } from '../rendering/mentions';
import { ContentRenderer } from '../core/content-renderer';
import { Flag, flagNames } from './message-flags';
import { submessagesByMessage, toMessageRecord, type StoredMessage } from './message-record';
import { pythonJson, widgetOf } from '../widgets/widget-data';
import { normalizeContent, normalizeTopic } from './message-text';
import { escapeName, parseChannelTarget, parseDirectTargets } from './recipients';
import { Visibility, visibilityAfterSend } from './visibility-policy';
import { ChannelSendContexts } from './channel-send-contexts';
import { serviceBotTriggers } from '../outgoing-webhooks/service-bot-triggers';

type Params = DecodedParams<typeof Messaging.sendMessageParams>;
/**
 * `systemSender` is never on the wire: the organization's notification bot sending a notice
 * (a message report) may post in any channel of its organization, as Zulip's cross-realm
 * system bots may (access_stream_for_send_message).
 */
type Command = UserCommand<Params> & { systemSender?: boolean };

/** Zulip's Realm.WILDCARD_MENTION_THRESHOLD: above it, wildcards need permission. */
export const WILDCARD_MENTION_THRESHOLD = 15;

/** Clients that are Zulip's own apps mark their own messages read (Client.default_read_by_sender). */
const READ_BY_SENDER_CLIENTS = new Set(['website', 'ZulipMobile', 'ZulipElectron', 'ZulipDesktop', 'ZulipTerminal', 'ZulipFlutter']);

interface Delivery {
  streamId: number | null;
  channel?: StreamModel;
  dmGroupId: number | null;
  dmMembers: number[];
  topic: string;
  recipientIds: number[];
  subscriberCount: number;
  /** The sender's subscription is muted (channel messages). */
  channelMuted: boolean;
  /** The sender's profile, when it was read with the rest. */
  senderProfile?: MemberProfileRow;
}

/** A message checked and rendered, not yet written. */
interface Prepared {
  isChannel: boolean;
  content: string;
  renderedContent: string;
  delivery: Delivery;
  mentions: MentionEnv;
  flagsOf: (userId: number) => number;
}

/**
 * POST /messages (zerver/views/message_send.py, zerver/actions/message_send.py): checks every
 * rule, writes the message and its recipients' rows in one transaction, then publishes the
 * message event and any topic visibility changes.
 */
@Injectable()
export class SendMessage {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly channels: ChannelsRepository,
    private readonly dmGroups: DirectMessageGroupsRepository,
    private readonly topics: TopicsRepository,
    private readonly transactions: Transactions,
    private readonly users: UsersReadonlyRepository,
    private readonly profiles: MemberProfiles,
    private readonly outbox: EventOutbox,
    private readonly channelContexts: ChannelSendContexts,
    private readonly renderer: ContentRenderer,
    private readonly alertWords: AlertWordsCache,
    private readonly muters: MutersCache,
    private readonly submessages: SubmessagesRepository,
    private readonly commands: CommandClient,
  ) {}

  async execute(command: Command): Promise<{ id: number; automatic_new_visibility_policy?: number }> {
    const sent = await this.send(command, await this.prepare(command), null);
    return { id: sent.id!, ...(sent.ownPolicy !== undefined ? { automatic_new_visibility_policy: sent.ownPolicy } : {}) };
  }

  /**
   * Every check of sending, nothing written (but a direct-message group, found or created):
   * the message as it would be stored. What the scheduler asks when a message is scheduled.
   */
  async check(command: Command): Promise<Messaging.CheckedMessage> {
    const prepared = await this.prepare(command);
    return {
      streamId: prepared.delivery.streamId,
      recipientIds: prepared.delivery.streamId === null ? prepared.delivery.dmMembers : [],
      topic: prepared.delivery.topic,
      content: prepared.content,
      renderedContent: prepared.renderedContent,
    };
  }

  /**
   * Sends once per key (a scheduled message's id): a key already used answers the message it
   * became and sends nothing, even when two deliveries race (the unique index decides).
   */
  async sendOnce(command: Command, scheduledMessageId: number): Promise<{ id: number; alreadySent: boolean }> {
    const existing = await this.messages.idByScheduledMessage(scheduledMessageId);
    if (existing !== null) return { id: existing, alreadySent: true };
    const sent = await this.send(command, await this.prepare(command), scheduledMessageId);
    if (sent.id !== null) return { id: sent.id, alreadySent: false };
    return { id: (await this.messages.idByScheduledMessage(scheduledMessageId))!, alreadySent: true };
  }

  private async prepare(command: Command): Promise<Prepared> {
    const { realm, params } = command;
    const sender = command.user;
    if (params.queue_id !== undefined && params.local_id === undefined) throw badRequest('Missing local_id');
    const isChannel = params.type === 'channel' || params.type === 'stream';
    const content = normalizeContent(params.content);
    const delivery = isChannel ? await this.toChannel(command) : await this.toDirect(command);

    // Rendering resolves mentions, channel links, custom emoji and linkifiers, and refuses a group mention the sender may not make.
    const [{ rendered: renderedContent, mentions }, realmAlertWords, muters] = await Promise.all([
      this.renderer.render(realm.id, content, sender.id),
      this.alertWords.of(realm.id),
      this.muters.of(realm.id, sender.id),
    ]);
    // Recipients whose alert words the message contains (never the sender): has_alert_word.
    const alerted = alertedUsers(content, realmAlertWords);
    alerted.delete(sender.id);
    // Only a topic wildcard needs the topic's participants (a query that grows with the topic).
    const topicParticipants = isChannel && mentions.topicWildcard ? await this.topicParticipants(delivery) : new Set<number>();
    if (isChannel) await this.checkWildcards(command, delivery, mentions, topicParticipants);

    const readBySender = params.read_by_sender ?? READ_BY_SENDER_CLIENTS.has(command.client ?? '');
    const flagsOf = (userId: number): number => {
      let bits = isChannel ? 0 : Flag.is_private;
      if (userId === sender.id && readBySender) bits |= Flag.read;
      // Zulip marks a muted sender's messages read for whoever muted them.
      if (muters.has(userId)) bits |= Flag.read;
      if (mentions.mentionedUserIds.has(userId)) bits |= Flag.mentioned;
      if (mentions.channelWildcard) bits |= Flag.stream_wildcard_mentioned;
      if (mentions.topicWildcard && topicParticipants.has(userId)) bits |= Flag.topic_wildcard_mentioned;
      if (alerted.has(userId)) bits |= Flag.has_alert_word;
      return bits;
    };
    return { isChannel, content, renderedContent, delivery, mentions, flagsOf };
  }

  /** Writes and announces a prepared message; with a key already used, writes nothing and answers `id: null`. */
  private async send(command: Command, prepared: Prepared, scheduledMessageId: number | null): Promise<{ id: number | null; ownPolicy?: number }> {
    const { realm, params } = command;
    const sender = command.user;
    const { isChannel, content, renderedContent, delivery, mentions, flagsOf } = prepared;

    // Only the people the message shows or whose settings matter: not every subscriber.
    const profiles = await this.profiles.of(
      realm.host,
      [sender.id, ...delivery.dmMembers, ...mentions.mentionedUserIds],
      delivery.senderProfile ? [delivery.senderProfile] : [],
    );

    // One statement writes the message, its recipients' rows, its events (outbox rows: see
    // libs/db event-outbox) and the channel's first message, and answers the topic's state
    // before it; topic visibility changes (a topic's first messages, mentions) follow in a
    // transaction of their own, with their events.
    const unsaved: Omit<StoredMessage, 'id' | 'scheduledMessageId'> = {
      realmId: realm.id,
      senderId: sender.id,
      streamId: delivery.streamId,
      dmGroupId: delivery.dmGroupId,
      topic: delivery.topic,
      content,
      renderedContent,
      sendingClient: command.client ?? 'API',
      dateSent: new Date(),
      ...contentFlags(content, renderedContent),
    };
    const channelNames = new Map(delivery.channel ? [[delivery.channel.id, delivery.channel.name]] : []);
    const dmMembers = new Map(delivery.dmGroupId !== null ? [[delivery.dmGroupId, delivery.dmMembers]] : []);
    // Outgoing webhook bots the message triggers (Zulip's service bot rules), told through the outbox.
    const webhookBots = serviceBotTriggers({
      senderIsBot: sender.isBot,
      senderId: sender.id,
      isChannel,
      mentionedUserIds: mentions.mentionedUserIds,
      directRecipientIds: delivery.dmMembers,
      profiles,
    });
    /** The message's events, given its id (or the outbox's placeholder for it) and its submessages. */
    const announcementsOf = (id: number, submessages: SubmessageRow[]) => {
      const record = toMessageRecord(
        { ...unsaved, id, scheduledMessageId },
        { realm, profiles, channelNames, dmMembers, applyMarkdown: true, clientGravatar: false, allowEmptyTopic: true, submessages: submessagesByMessage(submessages) },
      );
      return [
        {
          def: MessagingEvents.messageSent,
          payload: {
            realmId: realm.id,
            message: { ...record, raw_content: content },
            recipients: delivery.recipientIds.map((userId) => ({ id: userId, flags: flagNames(flagsOf(userId)) })),
            senderGravatar: clientComputesAvatar(profiles.get(sender.id)?.avatarSource ?? ''),
            publicChannel: delivery.channel ? !delivery.channel.inviteOnly : false,
            ...(params.queue_id !== undefined ? { senderQueue: { userId: sender.id, queueId: params.queue_id, localId: params.local_id! } } : {}),
          },
        },
        ...attachmentLinks(realm.id, { id, senderId: sender.id, dateSent: unsaved.dateSent }, content),
        ...outgoingWebhooks(realm.id, record, content, webhookBots),
      ];
    };
    const rows = { ...unsaved, recipientIds: delivery.recipientIds, recipientFlags: delivery.recipientIds.map(flagsOf) };
    // Zulip's do_widget_post_save_actions: only content starting /poll or /todo has a widget.
    const widget = widgetOf(content);
    let saved: InsertedMessageRow;
    let announced: StoredEvent[];
    if (!widget) {
      const drafts = announcementsOf(NEW_MESSAGE_ID as unknown as number, []).map((event) => outboxDraft(event, NEW_MESSAGE_ID));
      const row = await this.messages.insert({ ...rows, events: drafts }, scheduledMessageId);
      if (!row) return { id: null };
      [saved, announced] = [row, this.outbox.stored(drafts, row.outboxIds, row.id)];
    } else {
      // The widget's submessage needs the message's id, and the event both: one transaction.
      const written = await this.transactions.run(async (tx) => {
        const row = await this.messages.insert({ ...rows, events: [] }, scheduledMessageId, tx);
        if (!row) return null;
        const submessage = await this.submessages.add(row.id, sender.id, 'widget', pythonJson(widget), tx);
        return { row, staged: await this.outbox.stage(tx, announcementsOf(row.id, [submessage])) };
      });
      if (!written) return { id: null };
      [saved, announced] = [written.row, written.staged];
    }
    const visibilityChanges = isChannel
      ? this.visibilityChanges(delivery, { policies: saved.topicPolicies, hasMessages: saved.topicHadMessages }, sender.id, mentions, profiles)
      : [];
    if (visibilityChanges.length > 0) {
      const now = Math.floor(Date.now() / 1000);
      const changes = visibilityChanges.map((change) => ({
        def: MessagingEvents.userTopicChanged,
        payload: {
          realmId: realm.id,
          users: [change.userId],
          event: { type: 'user_topic', stream_id: delivery.streamId, topic_name: delivery.topic, last_updated: now, visibility_policy: change.policy },
        },
      }));
      announced.push(
        ...(await this.transactions.run(async (tx) => {
          for (const change of visibilityChanges) await this.topics.setVisibility(change.userId, delivery.streamId!, delivery.topic, change.policy, tx);
          return this.outbox.stage(tx, changes);
        })),
      );
    }
    await this.outbox.publish(announced, command.requestId);

    const own = visibilityChanges.find((change) => change.userId === sender.id);
    return { id: saved.id, ownPolicy: own?.policy };
  }

  private async toChannel({ realm, user, params, systemSender }: Command): Promise<Delivery> {
    const target = parseChannelTarget(params.to);
    // The topic's errors come after the channel's.
    let topic = '';
    let topicError: unknown;
    try {
      if (params.topic !== undefined) topic = normalizeTopic(params.topic);
    } catch (error) {
      topicError = error;
    }
    const context = await this.channelContexts.of('id' in target ? target : { name: target.name.trim() }, realm.id, user.id);
    const access = context ? (accessFrom(context, user) ?? (systemSender ? { channel: channelFrom(context), subscription: null } : null)) : null;
    if (!access) {
      const exists = await this.channels.exists(realm.id, target);
      if (!exists && 'id' in target) {
        throw new ZulipError('STREAM_DOES_NOT_EXIST', `Channel with ID '${target.id}' does not exist`, { stream_id: target.id });
      }
      if (!exists && 'name' in target) {
        const name = escapeName(target.name);
        throw new ZulipError('STREAM_DOES_NOT_EXIST', `Channel '${name}' does not exist`, { stream: name });
      }
      throw badRequest(`Not authorized to send to channel '${'name' in target ? target.name : target.id}'`);
    }
    if (!systemSender && !context!.everyoneMaySend && !(await this.profiles.maySendTo(user.id, context!.canSendMessageGroupId))) {
      throw badRequest('You do not have permission to post in this channel.');
    }
    if (params.topic === undefined) throw badRequest('Missing topic');
    if (topicError) throw topicError;

    const active = context!.subscriberIds;
    const recipientIds = [...new Set([...active, user.id])].sort((a, b) => a - b);
    return {
      streamId: access.channel.id,
      channel: access.channel,
      dmGroupId: null,
      dmMembers: [],
      topic,
      recipientIds,
      subscriberCount: active.length,
      channelMuted: access.subscription?.isMuted ?? false,
      senderProfile: context!.sender,
    };
  }

  private async toDirect({ realm, user, params, requestId }: Command): Promise<Delivery> {
    const targets = parseDirectTargets(params.to);
    const recipients =
      'ids' in targets
        ? await this.users.byIds(realm.id, targets.ids, (id) => `Invalid user ID ${id}`)
        : await this.users.byEmails(realm.id, targets.emails, (email) => `Invalid email '${email}'`);
    // Zulip's check_sender_can_access_recipients: whom can_access_all_users_group hides from a
    // guest is no one they may write to.
    if (await hidesAnyFromGuest(this.commands, realm, user, recipients.map((recipient) => recipient.id), requestId)) {
      throw badRequest('You do not have permission to access some of the recipients.');
    }
    const members = [...new Set([user.id, ...recipients.map((r) => r.id)])].sort((a, b) => a - b);
    return {
      streamId: null,
      dmGroupId: await this.dmGroups.findOrCreate(realm.id, members),
      dmMembers: members,
      topic: '',
      recipientIds: members,
      subscriberCount: 0,
      channelMuted: false,
    };
  }

  /**
   * A group mention needs the group's can_mention_group (a silent one does not), and mentions
   * its members: they get the `mentioned` flag.
   */
  /** Everyone who has sent a message to the topic. */
  private async topicParticipants(delivery: Delivery): Promise<Set<number>> {
    return new Set(await this.messages.topicSenderIds(delivery.streamId!, delivery.topic));
  }

  private async checkWildcards(command: Command, delivery: Delivery, mentions: MentionEnv, participants: Set<number>): Promise<void> {
    if (!mentions.channelWildcard && !mentions.topicWildcard) return;
    const sender = command.user;
    if (await this.profiles.mayMentionManyUsers(command.realm.id, sender.id)) return;
    if (mentions.channelWildcard && delivery.subscriberCount > WILDCARD_MENTION_THRESHOLD) {
      throw new ZulipError(
        'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
        'You do not have permission to use channel wildcard mentions in this channel.',
      );
    }
    const topicParticipants = new Set([...participants, sender.id]);
    if (mentions.topicWildcard && topicParticipants.size > WILDCARD_MENTION_THRESHOLD) {
      throw new ZulipError('TOPIC_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use topic wildcard mentions in this topic.');
    }
  }

  /** The sender's automatic follow/unmute, and mentioned users who follow where mentioned. */
  private visibilityChanges(
    delivery: Delivery,
    { policies, hasMessages }: { policies: { userId: number; policy: number }[]; hasMessages: boolean },
    senderId: number,
    mentions: MentionEnv,
    profiles: Awaited<ReturnType<MemberProfiles['of']>>,
  ): { userId: number; policy: number }[] {
    const policyOf = (userId: number) => policies.find((row) => row.userId === userId)?.policy ?? Visibility.INHERIT;
    const initiates = !hasMessages;

    const changes: { userId: number; policy: number }[] = [];
    const sender = profiles.get(senderId);
    if (sender && !sender.isBot) {
      const policy = visibilityAfterSend({
        current: policyOf(senderId),
        initiates,
        channelMuted: delivery.channelMuted,
        followPolicy: sender.settings.automatically_follow_topics_policy,
        unmutePolicy: sender.settings.automatically_unmute_topics_in_muted_streams_policy,
      });
      if (policy !== null && policy !== policyOf(senderId)) changes.push({ userId: senderId, policy });
    }
    for (const userId of mentions.mentionedUserIds) {
      const mentioned = profiles.get(userId);
      if (userId === senderId || !mentioned || mentioned.isBot || !delivery.recipientIds.includes(userId)) continue;
      if (!mentioned.settings.automatically_follow_topics_where_mentioned) continue;
      if (policyOf(userId) !== Visibility.FOLLOWED) changes.push({ userId, policy: Visibility.FOLLOWED });
    }
    return changes;
  }
}

/**
 * The attachments_linked event for the uploads service when the content links uploaded files
 * (a substring test first: most messages link none, and pay nothing more).
 */
/** The attachments a new message links. */
function attachmentLinks(realmId: number, message: { id: number; senderId: number; dateSent: Date }, content: string) {
  if (!content.includes('/user_uploads/')) return [];
  const pathIds = linkedPathIds(content);
  if (pathIds.length === 0) return [];
  return [
    {
      def: MessagingEvents.attachmentsLinked,
      payload: { realmId, messageId: message.id, senderId: message.senderId, dateSent: message.dateSent.getTime(), pathIds },
    },
  ];
}

/**
 * The outgoing webhook bots a new message triggers, as one event written with it (its id the
 * outbox placeholder), carrying the message as their services get it: Zulip's MessageDict with
 * apply_markdown off (the Markdown source as `content`, the HTML as `rendered_content`).
 */
function outgoingWebhooks(realmId: number, record: Messaging.MessageRecord, content: string, bots: Messaging.OutgoingWebhookTriggered['bots']) {
  if (bots.length === 0) return [];
  return [
    {
      def: Messaging.OutgoingWebhookEvents.outgoingWebhookTriggered,
      payload: {
        realmId,
        message: { ...record, id: NEW_MESSAGE_ID as unknown as number, content, content_type: 'text/x-markdown', rendered_content: record.content },
        bots,
      },
    },
  ];
}

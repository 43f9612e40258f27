import type { Messaging, RealmRef } from '@teamchat/contracts';
import type { MessageModel } from '@teamchat/db';
import { avatarUrl } from '@teamchat/zulip';
import type { MemberProfile } from '../core/member-profiles';
import { displayTopic } from './message-text';

export interface RecordContext {
  realm: RealmRef;
  profiles: Map<number, MemberProfile>;
  channelNames: Map<number, string>;
  dmMembers: Map<number, number[]>;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopic: boolean;
  /** The messages' reactions, by message id (none when absent). */
  reactions?: Map<number, Messaging.MessageRecord['reactions']>;
  /** The messages' submessages (widgets), by message id (none when absent). */
  submessages?: Map<number, Messaging.MessageRecord['submessages']>;
}

/** Submessage rows as message records list them (Zulip's SubMessage.get_raw_db_rows), by message id. */
export function submessagesByMessage(
  rows: { id: number; messageId: number; senderId: number; msgType: string; content: string }[],
): Map<number, Messaging.MessageRecord['submessages']> {
  const byMessage = new Map<number, Messaging.MessageRecord['submessages']>();
  for (const row of rows) {
    const list = byMessage.get(row.messageId) ?? [];
    list.push({ id: row.id, message_id: row.messageId, sender_id: row.senderId, msg_type: row.msgType, content: row.content });
    byMessage.set(row.messageId, list);
  }
  return byMessage;
}

/** The stored columns a message record shows (edit and move times when read). */
export type StoredMessage = Omit<MessageModel, 'editHistory' | 'lastEditTime' | 'lastMoveTime'> & {
  lastEditTime?: Date | null;
  lastMoveTime?: Date | null;
};

const seconds = (at: Date): number => Math.floor(at.getTime() / 1000);

/**
 * Zulip's `recipient_id` names a conversation. We derive it: 2·channel id for a channel,
 * 2·group id + 1 for a direct-message group, so the two kinds never collide.
 */
export const recipientId = (message: Pick<MessageModel, 'streamId' | 'dmGroupId'>): number =>
  message.streamId !== null ? message.streamId * 2 : message.dmGroupId! * 2 + 1;

/** A message as GET /messages and the message event show it (zerver/lib/message.py). */
export function toMessageRecord(message: StoredMessage, ctx: RecordContext): Messaging.MessageRecord {
  const sender = ctx.profiles.get(message.senderId);
  const isChannel = message.streamId !== null;
  const displayRecipient = isChannel
    ? (ctx.channelNames.get(message.streamId!) ?? '')
    : (ctx.dmMembers.get(message.dmGroupId!) ?? [message.senderId]).map((id) => {
        const member = ctx.profiles.get(id);
        return { id, email: member?.email ?? '', full_name: member?.fullName ?? '', is_mirror_dummy: false };
      });
  return {
    id: message.id,
    sender_id: message.senderId,
    content: ctx.applyMarkdown ? message.renderedContent : message.content,
    content_type: ctx.applyMarkdown ? ('text/html' as const) : ('text/x-markdown' as const),
    recipient_id: recipientId(message),
    timestamp: Math.floor(message.dateSent.getTime() / 1000),
    client: message.sendingClient,
    subject: isChannel ? displayTopic(message.topic, ctx.allowEmptyTopic) : '',
    topic_links: [],
    is_me_message: message.content.startsWith('/me '),
    reactions: ctx.reactions?.get(message.id) ?? [],
    submessages: ctx.submessages?.get(message.id) ?? [],
    sender_full_name: sender?.fullName ?? '',
    sender_email: sender?.email ?? '',
    sender_realm_str: ctx.realm.subdomain,
    avatar_url: sender ? avatarUrl(sender, { realmId: ctx.realm.id, clientGravatar: ctx.clientGravatar }) : null,
    display_recipient: displayRecipient,
    type: isChannel ? ('stream' as const) : ('private' as const),
    ...(isChannel ? { stream_id: message.streamId! } : {}),
    ...(message.lastEditTime ? { last_edit_timestamp: seconds(message.lastEditTime) } : {}),
    ...(message.lastMoveTime ? { last_moved_timestamp: seconds(message.lastMoveTime) } : {}),
  };
}

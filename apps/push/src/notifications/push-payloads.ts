import { avatarUrl } from '@teamchat/zulip';
import type { NotifiedMessageRow } from '../data/notification-context.readonly.repository';
import { basePayload } from './legacy-payloads';

/** Zulip truncates a notification's text to 200 characters (push_notifications.py truncate_content). */
const MAX_CONTENT = 200;

/** The realm's URL from its subdomain and the server's external URL. */
export function realmUrlOf(subdomain: string, externalUrl: string): string {
  const root = new URL(externalUrl);
  const port = root.port ? `:${root.port}` : '';
  return `${root.protocol}//${subdomain ? `${subdomain}.` : ''}${root.hostname}${port}`;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' };

/** The message's rendered HTML as plain text (Zulip's get_mobile_push_content, simplified). */
export function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|li|blockquote|h[1-6]|pre|div)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (_, name: string) => ENTITIES[name])
    .replace(/\n{2,}/g, '\n')
    .trim();
}

export function truncated(text: string): { content: string; truncated: boolean } {
  return text.length > MAX_CONTENT ? { content: `${text.slice(0, MAX_CONTENT)}…`, truncated: true } : { content: text, truncated: false };
}

export interface PayloadContext {
  message: NotifiedMessageRow;
  realmUrl: string;
}

/** A direct message's other participants, sorted, the user included (Zulip's pm_users) — group DMs only. */
function pmUsers(message: NotifiedMessageRow): string | undefined {
  const members = message.dmMembers ?? [];
  return members.length > 2 ? [...members].sort((a, b) => a - b).join(',') : undefined;
}

/** The plaintext sealed for an E2EE device (api_docs/mobile-notifications.md, feature level 420). */
export function e2eeMessagePayload({ message, realmUrl }: PayloadContext, userId: number): Record<string, unknown> {
  const common = {
    type: 'message',
    message_id: message.id,
    realm_name: message.realmName,
    realm_url: realmUrl,
    user_id: userId,
    sender_id: message.senderId,
    sender_full_name: message.senderName,
    sender_avatar_url: senderAvatar(message, realmUrl),
    time: message.dateSent,
    content: truncated(plainText(message.renderedContent)).content,
  };
  if (message.streamId !== null) {
    return { ...common, recipient_type: 'channel', channel_id: message.streamId, channel_name: message.streamName, topic: message.topic };
  }
  const group = pmUsers(message);
  return { ...common, recipient_type: 'direct', ...(group ? { pm_users: group } : {}) };
}

export function e2eeRemovePayload(realm: { name: string; url: string }, userId: number, messageIds: number[]): Record<string, unknown> {
  return { type: 'remove', message_ids: messageIds, realm_name: realm.name, realm_url: realm.url, user_id: userId };
}

/** Absolute, as Zulip's absolute_avatar_url: an uploaded avatar's path joined to the organization's URL. */
function senderAvatar(message: NotifiedMessageRow, realmUrl: string): string {
  const sender = { id: message.senderId, deliveryEmail: message.senderEmail, avatarSource: message.senderAvatarSource, avatarVersion: message.senderAvatarVersion };
  return new URL(avatarUrl(sender, { realmId: message.realmId })!, realmUrl).toString();
}

/** The older FCM and APNs payloads the relay hands to token-registered devices (Zulip's get_message_payload_gcm/apns). */
export function legacyMessagePayloads({ message, realmUrl }: PayloadContext, userId: number, mentioned: boolean) {
  const realm = { id: message.realmId, name: message.realmName, url: realmUrl };
  const text = truncated(plainText(message.renderedContent));
  const recipient =
    message.streamId !== null
      ? { recipient_type: 'stream', stream: message.streamName, stream_id: message.streamId, topic: message.topic }
      : { recipient_type: 'private', ...(pmUsers(message) ? { pm_users: pmUsers(message) } : {}) };
  const about = { ...basePayload(realm, userId), sender_id: message.senderId, sender_email: message.senderEmail, time: message.dateSent, ...recipient };
  const gcm = {
    ...about,
    event: 'message',
    zulip_message_id: message.id,
    content: text.content,
    content_truncated: text.truncated,
    sender_full_name: message.senderName,
    sender_avatar_url: senderAvatar(message, realmUrl),
  };
  const title = message.streamId !== null ? `#${message.streamName ?? ''} > ${message.topic}` : message.senderName;
  const subtitle = message.streamId === null ? '' : mentioned ? `${message.senderName} mentioned you:` : `${message.senderName}:`;
  const apns = { alert: { title, subtitle, body: text.content }, sound: 'default', badge: 0, custom: { zulip: { ...about, message_ids: [message.id] } } };
  return { gcm, apns, gcmOptions: { priority: 'high' } };
}

export function legacyRemovePayloads(realm: { id: number; name: string; url: string }, userId: number, messageIds: number[]) {
  const base = { ...basePayload(realm, userId), event: 'remove', zulip_message_ids: messageIds.join(',') };
  return { gcm: base, apns: { badge: 0, custom: { zulip: base } }, gcmOptions: { priority: 'normal' } };
}

import { Messaging } from '@teamchat/contracts';
import { EMPTY_TOPIC_DISPLAY_NAME, LIMITS } from '@teamchat/zulip';

/**
 * The message the notification bot posts for a report (zerver/lib/message_report.py
 * send_message_report, as Zulip 11 words it), built from the reported message and names.
 */

/** Zulip's MAX_REPORT_MESSAGE_SNIPPET_LENGTH: room left for the reporter's notes and the template. */
export const MAX_REPORT_SNIPPET_LENGTH = LIMITS.maxMessageLength - Messaging.MAX_REPORT_DESCRIPTION_LENGTH - 500;

export interface ReportedMessage {
  id: number;
  senderId: number;
  content: string;
  dateSent: Date;
  /** A channel message's channel and topic. */
  channel: { id: number; name: string; topic: string } | null;
  /** A direct message's participants (the sender included), ascending. */
  dmMemberIds: number[];
}

export interface ReportInput {
  reporterId: number;
  reportType: keyof typeof Messaging.REPORT_MESSAGE_REASONS;
  description: string;
  message: ReportedMessage;
  /** Full names of the reporter, the sender and the direct message's participants. */
  names: ReadonlyMap<number, string>;
  /** The organization's URL (direct message links are absolute). */
  realmUrl: string;
}

/** Zulip's silent_mention_syntax_for_user. */
const silentMention = (id: number, names: ReadonlyMap<number, string>) => `@_**${names.get(id) ?? ''}|${id}**`;

/** Zulip's datetime_to_global_time: `<time:…>` with the UTC time to the second. */
export const globalTime = (date: Date) => `<time:${date.toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;

/** Zulip's truncate_content. */
export function truncateContent(content: string, maxLength: number, note: string): string {
  const chars = [...content];
  return chars.length > maxLength ? chars.slice(0, maxLength - [...note].length).join('') + note : content;
}

/** Zulip's get_unused_fence: a backtick fence longer than any the content opens a line with. */
export function unusedFence(content: string): string {
  let length = 3;
  for (const match of content.matchAll(/^ {0,3}(`{3,})/gm)) length = Math.max(length, match[1].length + 1);
  return '`'.repeat(length);
}

const BROKEN_LINK = /[`>*&[\]]|\$\$/;
const LINK_ESCAPES: Record<string, string> = { '`': '&#96;', '>': '&gt;', '*': '&#42;', '&': '&amp;', $$: '&#36;&#36;', '[': '&#91;', ']': '&#93;' };
const escapeLinkText = (text: string) => text.replace(/[`>*&[\]]|\$\$/g, (match) => LINK_ESCAPES[match] ?? match);

/** Zulip's encode_hash_component. */
export function encodeHashComponent(text: string): string {
  const replacements: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };
  // Python's quote(text, safe="*") also escapes ! and ' (encodeURIComponent leaves them).
  return encodeURIComponent(text)
    .replace(/[!']/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/[%().]/g, (c) => replacements[c]);
}

/** Zulip's get_message_link_syntax: `#**channel>topic@id**`, or a plain link where that syntax would break. */
export function messageLinkSyntax(channelId: number, channelName: string, topic: string, messageId: number): string {
  if (!BROKEN_LINK.test(topic) && !BROKEN_LINK.test(channelName)) return `#**${channelName}>${topic}@${messageId}**`;
  const link = `#narrow/channel/${channelId}-${encodeHashComponent(channelName.replace(/ /g, '-'))}/topic/${encodeHashComponent(topic)}/near/${messageId}`;
  const shownTopic = topic === '' ? EMPTY_TOPIC_DISPLAY_NAME : topic;
  return `[#${escapeLinkText(channelName)} > ${escapeLinkText(shownTopic)} @ 💬](${link})`;
}

/** Zulip's pm_message_url: the organization's URL, `#narrow/dm/<ids>[-group]/near/<id>`. */
export const directMessageUrl = (realmUrl: string, memberIds: number[], messageId: number) =>
  `${realmUrl}/#narrow/dm/${[...memberIds].sort((a, b) => a - b).join(',')}${memberIds.length >= 3 ? '-group' : ''}/near/${messageId}`;

/** The report's topic and content. */
export function reportMessage(input: ReportInput): { topic: string; content: string } {
  const { reporterId, message, names } = input;
  const reporter = silentMention(reporterId, names);
  const sender = silentMention(message.senderId, names);
  const when = globalTime(message.dateSent);
  let header: string;
  let original: string;
  if (message.channel) {
    header = `${reporter} reported a message sent by ${sender} at ${when}.`;
    original = `Original message at ${messageLinkSyntax(message.channel.id, message.channel.name, message.channel.topic, message.id)}`;
  } else {
    const members = message.dmMemberIds;
    if (members.length <= 2) {
      if (message.senderId !== reporterId) {
        header = `${reporter} reported a direct message sent by ${sender} at ${when}.`;
      } else {
        // Reporting one's own message in a one-on-one conversation names the other participant.
        const other = members.find((id) => id !== reporterId);
        header = `${reporter} reported a direct message sent by ${sender} to ${other === undefined ? reporter : silentMention(other, names)} at ${when}.`;
      }
    } else {
      const others = members.filter((id) => id !== message.senderId).map((id) => silentMention(id, names)).sort();
      const last = others.pop()!;
      const list = others.join(', ') + (others.length > 1 ? ',' : '');
      header = `${reporter} reported a direct message sent by ${sender} to ${list} and ${last} at ${when}.`;
    }
    original = `[Original message](${directMessageUrl(input.realmUrl, members, message.id)})`;
  }
  const snippet = truncateContent(message.content, MAX_REPORT_SNIPPET_LENGTH, '\n[message truncated]');
  const fence = unusedFence(snippet);
  const reason = Messaging.REPORT_MESSAGE_REASONS[input.reportType];
  const content = `${header}\n\`\`\`quote\n**${reason}**. ${input.description}\n\`\`\`\n\n${fence} spoiler ${original}\n${snippet}\n${fence}`;
  const topic = truncateContent(`${names.get(message.senderId) ?? ''} moderation`, LIMITS.maxTopicLength, '...');
  return { topic, content };
}

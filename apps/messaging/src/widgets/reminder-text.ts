import { EMPTY_TOPIC_DISPLAY_NAME, LIMITS, badRequest } from '@teamchat/zulip';
import { Scheduler } from '@teamchat/contracts';

/** The message a reminder is about, with the names its text shows. */
export interface RemindedMessage {
  id: number;
  senderId: number;
  senderName: string;
  content: string;
  /** A channel message's channel; null for a direct message. */
  channel: { id: number; name: string } | null;
  topic: string;
  /** A direct message's participants (the sender included) with their names, by id. */
  participants: { id: number; fullName: string }[];
}

const TRUNCATED = '\n[message truncated]';

/** Zulip's encode_hash_component: percent-encoding (only `*` spared besides letters, digits and `_.-~`), then `%` → `.` and `.` → `.2E`. */
export function encodeHashComponent(text: string): string {
  const encoded = encodeURIComponent(text).replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return encoded.replace(/[%.]/g, (c) => (c === '%' ? '.' : '.2E'));
}

/** Zulip's encode_channel: `<id>-<name with spaces as dashes>`. */
const encodeChannel = (id: number, name: string): string => `${id}-${encodeHashComponent(name.replace(/ /g, '-'))}`;

/** Zulip's encode_user_ids: the sorted ids, `-group` for three or more. */
const encodeUserIds = (ids: number[]): string => [...ids].sort((a, b) => a - b).join(',') + (ids.length >= 3 ? '-group' : '');

/** Zulip's escape_invalid_stream_topic_characters, for a channel or topic name in link text. */
const ESCAPES: Record<string, string> = { '`': '&#96;', '>': '&gt;', '*': '&#42;', '&': '&amp;', '$$': '&#36;&#36;', '[': '&#91;', ']': '&#93;' };
const escapeLinkText = (text: string): string => text.replace(/[`>*&[\]]|\$\$/g, (match) => ESCAPES[match] ?? match);

const silentMention = (name: string, id: number): string => `@_**${name}|${id}**`;

/** "A", "A and B", "A, B, and C". */
const listed = (items: string[]): string =>
  items.length <= 2 ? items.join(' and ') : `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;

/** Zulip's get_unused_fence: three backticks, or one more than the longest fence in the text. */
function unusedFence(text: string): string {
  let length = 3;
  for (const match of text.matchAll(/^ {0,3}(`{3,})/gm)) length = Math.max(length, match[1].length + 1);
  return '`'.repeat(length);
}

/** Length in characters (code points), as Python counts. */
const charLength = (text: string): number => [...text].length;

/** Zulip's truncate_content. */
function truncate(text: string, maxLength: number): string {
  const chars = [...text];
  if (chars.length <= maxLength) return text;
  return chars.slice(0, Math.max(0, maxLength - charLength(TRUNCATED))).join('') + TRUNCATED;
}

/** Zulip's normalize_note_text: trailing space and leading newlines dropped, at most the limit. */
export function normalizeNote(note: string): string {
  const body = note.trimEnd().replace(/^\n+/, '');
  if (charLength(body) > Scheduler.MAX_REMINDER_NOTE_LENGTH) {
    throw badRequest(`Maximum reminder note length: ${Scheduler.MAX_REMINDER_NOTE_LENGTH} characters`);
  }
  return body;
}

/**
 * The text of a reminder (Zulip's get_reminder_formatted_content): a heading with the note,
 * who said it where (with a link to the message), and the message quoted, cut to fit the
 * message length limit; a poll or to-do list is named rather than quoted.
 */
export function reminderText(message: RemindedMessage, ownerId: number, realmUrl: string, rawNote: string | null): string {
  const note = rawNote ? normalizeNote(rawNote) : '';
  const widget = message.content.startsWith('/poll') ? 'poll' : message.content.startsWith('/todo') ? 'todo list' : null;
  const sender = silentMention(message.senderName, message.senderId);
  const what = message.channel ? 'message' : 'direct message';
  let text = note ? `You requested a reminder for the following ${what}. Note:\n > ${note}` : `You requested a reminder for the following ${what}.`;
  text += '\n\n';

  let said: string;
  if (message.channel) {
    const channel = encodeChannel(message.channel.id, message.channel.name);
    const topic = encodeHashComponent(message.topic);
    const url = `${realmUrl}/#narrow/channel/${channel}/topic/${topic}/near/${message.id}`;
    const shownTopic = message.topic === '' ? EMPTY_TOPIC_DISPLAY_NAME : message.topic;
    const link = `[#${escapeLinkText(message.channel.name)} > ${escapeLinkText(shownTopic)}](#narrow/channel/${channel}/topic/${topic}/with/${message.id})`;
    if (widget) return `${text}${sender} [sent](${url}) a ${widget} in ${link}.`;
    said = `${sender} [said](${url}) in ${link}:`;
  } else {
    const url = `${realmUrl}/#narrow/dm/${encodeUserIds(message.participants.map((p) => p.id))}/near/${message.id}`;
    const others = message.participants.filter((p) => p.id !== message.senderId);
    if (others.length === 0 && message.senderId === ownerId) {
      if (widget) return `${text}You [sent](${url}) yourself a ${widget}.`;
      said = `You [sent](${url}) a note to yourself:`;
    } else {
      const shown = others.length > 0 ? others : [{ id: message.senderId, fullName: message.senderName }];
      const recipients = listed(shown.map((p) => silentMention(p.fullName, p.id)));
      if (widget) return `${text}${sender} [sent](${url}) a ${widget} to ${recipients}.`;
      said = `${sender} [said](${url}) to ${recipients}:`;
    }
  }
  text += `${said}\n`;
  const fence = unusedFence(message.content);
  const quote = (body: string) => `${fence}quote\n${body}\n${fence}`;
  const room = LIMITS.maxMessageLength - charLength(text + quote(''));
  return text + quote(truncate(message.content, room));
}

import { Injectable } from '@nestjs/common';
import { MessagingEvents, type UserCommand, type Messaging } from '@teamchat/contracts';
import { EventOutbox, isStoredId } from '@teamchat/db';
import { EMPTY_TOPIC_DISPLAY_NAME, badRequest, type DecodedParams } from '@teamchat/zulip';
import { MessageFlagsRepository, type FlaggableRow } from '../data/message-flags.repository';
import { Flag } from './message-flags';

type Params = DecodedParams<typeof Messaging.updateMessageFlagsParams>;

/** The flags a user sets (zerver/models/messages.py: every flag but the server-kept ones). */
const EDITABLE = { read: Flag.read, starred: Flag.starred, collapsed: Flag.collapsed } as const;
const SERVER_KEPT = new Set(['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'wildcard_mentioned', 'has_alert_word', 'historical', 'is_private']);

/**
 * POST /messages/flags (zerver/views/message_flags.py update_message_flags): the caller's own
 * flag on their own messages. Marking a message unread is skipped for channels the caller is
 * no longer subscribed to (listed in the answer, as Zulip does). The caller's clients get
 * `update_message_flags` with the changed ids; a `read` removal carries each message's details
 * so clients can count it unread again.
 */
@Injectable()
export class UpdateMessageFlags {
  constructor(
    private readonly flags: MessageFlagsRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>) {
    const caller = user;
    const bit = editableFlagBit(params.flag);
    const ids = [...new Set(params.messages)];
    const rows = ids.every(isStoredId) ? await this.flags.flaggable(caller.id, ids) : [];
    if (rows.length !== ids.length) throw badRequest('Invalid message(s)');
    return this.change({ realmId: realm.id, userId: caller.id, op: params.op, flag: params.flag, bit, rows, requestId });
  }

  /**
   * Changes the flag on the caller's rows (checked already) and tells the caller's clients:
   * what POST /messages/flags and POST /messages/flags/narrow both do.
   */
  async change({ realmId, userId, op, flag, bit, rows, requestId }: FlagChange) {
    const ignoredChannels = new Set<number>();
    let targets = rows;
    if (op === 'remove' && flag === 'read') {
      targets = rows.filter((row) => row.streamId === null || row.subscribed);
      for (const row of rows) if (row.streamId !== null && !row.subscribed) ignoredChannels.add(row.streamId);
    }
    const messages =
      targets.length === 0
        ? []
        : await this.outbox.run(async (tx) => {
            const changed = (await this.flags.changeFlag(op, userId, targets.map((row) => row.messageId), bit, tx)).sort((a, b) => a - b);
            if (changed.length === 0) return { value: changed, events: [] };
            const byId = new Map(rows.map((row) => [row.messageId, row]));
            const event: Record<string, unknown> = { type: 'update_message_flags', op, operation: op, flag, messages: changed, all: false };
            if (op === 'remove' && flag === 'read') {
              event.message_details = Object.fromEntries(changed.map((id) => [String(id), messageDetails(byId.get(id)!, userId)]));
            }
            return { value: changed, events: [{ def: MessagingEvents.messageFlagsChanged, payload: { realmId, users: [userId], event: event as { type: string } } }] };
          }, requestId);
    return { messages, ignored_because_not_subscribed_channels: [...ignoredChannels].sort((a, b) => a - b) };
  }
}

export interface FlagChange {
  realmId: number;
  userId: number;
  op: 'add' | 'remove';
  flag: string;
  /** The flag's bit, from editableFlagBit. */
  bit: number;
  /** The caller's rows of the messages (flaggableMessages). */
  rows: FlaggableRow[];
  requestId: string;
}

/** The bit of a flag a user may set; Zulip's errors for the flags the server keeps and for unknown ones. */
export function editableFlagBit(flag: string): number {
  if (!(flag in EDITABLE)) throw badRequest(SERVER_KEPT.has(flag) ? `Flag not editable: '${flag}'` : `Invalid flag: '${flag}'`);
  return EDITABLE[flag as keyof typeof EDITABLE];
}

/** What a client needs to count a message unread again (Zulip's format_unread_message_details). */
function messageDetails(row: FlaggableRow, userId: number): Record<string, unknown> {
  const mentioned = (row.flags & (Flag.mentioned | Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned)) !== 0;
  const details: Record<string, unknown> =
    row.streamId !== null
      ? { type: 'stream', stream_id: row.streamId, topic: row.topic === '' ? EMPTY_TOPIC_DISPLAY_NAME : row.topic, unmuted_stream_msg: !row.channelMuted }
      : { type: 'private', user_ids: (row.dmMemberIds ?? []).filter((id) => id !== userId) };
  if (mentioned) details.mentioned = true;
  return details;
}

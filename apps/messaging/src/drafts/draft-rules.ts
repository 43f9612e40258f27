import { Injectable } from '@nestjs/common';
import { Messaging, type AuthUser, type ClientEvent, type EventDef } from '@teamchat/contracts';
import { isStoredId, type DraftModel } from '@teamchat/db';
import { LIMITS, badRequest, resourceNotFound } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';
import { MemberProfiles } from '../core/member-profiles';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';

type DraftRecord = Messaging.DraftRecord;

/** What a validated draft stores (the `drafts` columns but the owner). */
export interface DraftData {
  type: Messaging.DraftType;
  to: number[];
  topic: string;
  content: string;
  lastEditTime: Date;
}


/** Whether `id` can name a row at all (ids outside the column's range are simply unknown). */
export const isDraftId = isStoredId;

export const draftNotFound = () => resourceNotFound('Draft does not exist');

/** Zulip's truncate_content, counting characters (code points) as Python and Postgres do. */
export function truncate(text: string, max: number, marker: string): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return chars.slice(0, max - Array.from(marker).length).join('') + marker;
}

/**
 * One `drafts` event (add, update or remove) for the owner's clients only, written to the
 * outbox with the change.
 */
export function draftsEvent(
  realmId: number,
  ownerId: number,
  event: { op: 'add'; drafts: DraftRecord[] } | { op: 'update'; draft: DraftRecord } | { op: 'remove'; draft_id: number },
): { def: EventDef<never>; payload: ClientEvent } {
  // The outbox takes any event definition; the payload's type is checked here instead.
  const def = Messaging.MessagingEvents.draftsChanged as EventDef<ClientEvent> as unknown as EventDef<never>;
  return { def, payload: { realmId, users: [ownerId], event: { type: 'drafts', ...event } } };
}

export function toDraftRecord(row: Pick<DraftModel, 'id' | 'type' | 'to' | 'topic' | 'content' | 'lastEditTime'>): DraftRecord {
  return {
    id: row.id,
    type: row.type as Messaging.DraftType,
    to: row.to,
    topic: row.topic,
    content: row.content,
    timestamp: Math.floor(row.lastEditTime.getTime() / 1000),
  };
}

/**
 * The rules the drafts endpoints share (zerver/lib/drafts.py further_validated_draft_dict and
 * draft_endpoint): the caller's synchronization setting, and turning a draft as sent into what
 * is stored, with its addressees checked against what the caller may see.
 */
@Injectable()
export class DraftRules {
  constructor(
    private readonly channels: ChannelAccess,
    private readonly users: UsersReadonlyRepository,
    private readonly profiles: MemberProfiles,
  ) {}

  /**
   * Refuses every drafts endpoint when the caller turned `enable_drafts_synchronization` off.
   * A setting missing from the user's JSON falls back to the organization's default, then to
   * Zulip's (true).
   */
  async assertSyncEnabled(realmId: number, userId: number): Promise<void> {
    const settings = await this.profiles.settingsOf(realmId, userId);
    if (!settings.enable_drafts_synchronization) throw badRequest('User has disabled synchronizing drafts.');
  }

  async validate(realmId: number, caller: AuthUser, draft: Messaging.DraftInput): Promise<DraftData> {
    const content = truncate(draft.content.trim(), LIMITS.maxMessageLength, '\n[message truncated]');
    // The gateway refuses null bytes in any JSON string already; Postgres would refuse them too.
    if (content.includes('\0')) throw badRequest('Content must not contain null bytes');

    const seconds = draft.timestamp ?? Date.now() / 1000;
    if (seconds < 0) throw badRequest('Timestamp must not be negative.');
    const lastEditTime = new Date(Math.round(seconds * 1000));

    if (draft.type === 'stream') {
      const topic = truncate(draft.topic, LIMITS.maxTopicLength, '...');
      if (topic.includes('\0')) throw badRequest('Topic must not contain null bytes');
      if (draft.to.length !== 1) throw badRequest('Must specify exactly 1 channel ID for channel messages');
      // A channel the caller may not read is as unknown as one that does not exist.
      const access = await this.channels.readable(realmId, caller, draft.to[0]);
      if (!access) throw badRequest('Invalid channel ID');
      return { type: 'stream', to: [access.channel.id], topic, content, lastEditTime };
    }

    if (draft.type === 'private' && draft.to.length > 0) {
      const recipients = await this.users.byIds(realmId, draft.to, (id) => `Invalid user ID ${id}`);
      // As Zulip's recipient: the other participants, sorted; a draft to oneself is to [self].
      const others = recipients.map((user) => user.id).filter((id) => id !== caller.id);
      others.sort((a, b) => a - b);
      return { type: 'private', to: others.length ? others : [caller.id], topic: '', content, lastEditTime };
    }

    // Unaddressed, or direct with nobody yet: Zulip keeps no recipient, and shows type "".
    return { type: '', to: [], topic: '', content, lastEditTime };
  }
}

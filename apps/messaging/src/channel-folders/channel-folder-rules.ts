import { Messaging, type ClientEvent, type EventDef } from '@teamchat/contracts';
import type { ChannelFolderModel } from '@teamchat/db';
import { LIMITS, badRequest } from '@teamchat/zulip';
import { isUniqueViolation } from '../data/unique-violation';

type ChannelFolderRecord = Messaging.ChannelFolderRecord;

/** Zulip's words for a folder id that is not one of the organization's (zerver/lib/channel_folders.py). */
export const invalidFolderId = () => badRequest('Invalid channel folder ID');

export const folderNameInUse = () => badRequest('Channel folder name already in use');

/** Counted in characters (code points), as Zulip and Postgres count them. */
const length = (text: string) => Array.from(text).length;

/** Zulip's pydantic `max_length` check, on the text as sent. */
function checkLength(param: 'name' | 'description', text: string, max: number): void {
  if (length(text) > max) throw badRequest(`${param} is too long (limit: ${max} characters)`);
}

/** Zulip's check_string_is_printable: control characters, lone surrogates and noncharacters. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Noncharacter_Code_Point}]/u;

/** What Python's str.strip() takes off both ends (its whitespace differs from JavaScript's trim()). */
const SPACE_AT_ENDS =
  /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;
export const stripName = (raw: string): string => raw.replace(SPACE_AT_ENDS, '');

/** A folder name's length, as sent: checked before anything else (Zulip's parameter check). */
export const checkFolderNameLength = (raw: string): void => checkLength('name', raw, LIMITS.maxChannelFolderNameLength);

/**
 * A folder name as sent, checked as zerver/lib/channel_folders.py check_channel_folder_name
 * checks it (blank, then the first unprintable character, counted from 1 in the text as sent),
 * and stripped for storing. Its length is checked first, its use by another folder apart.
 */
export function checkFolderName(raw: string): string {
  checkFolderNameLength(raw);
  const name = stripName(raw);
  if (!name) throw badRequest("Channel folder name can't be empty.");
  const position = Array.from(raw).findIndex((ch) => UNPRINTABLE.test(ch));
  if (position >= 0) throw badRequest(`Invalid character in channel folder name, at position ${position + 1}.`);
  return name;
}

/** A description is kept as sent (it may be empty), up to its limit. */
export function checkFolderDescription(raw: string): string {
  checkLength('description', raw, LIMITS.maxChannelFolderDescriptionLength);
  return raw;
}

/** The unique index on unarchived names refused a write: another request took the name meanwhile. */
export const isNameConflict = (error: unknown): boolean => isUniqueViolation(error);

export function toChannelFolderRecord(row: ChannelFolderModel): ChannelFolderRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    rendered_description: row.renderedDescription,
    creator_id: row.creatorId,
    date_created: Math.floor(row.dateCreated.getTime() / 1000),
    is_archived: row.isArchived,
    order: row.order,
  };
}

export type ChannelFolderEvent =
  | { op: 'add'; channel_folder: ChannelFolderRecord }
  | {
      op: 'update';
      channel_folder_id: number;
      data: { name: string } | { description: string; rendered_description: string } | { is_archived: boolean };
    }
  | { op: 'reorder'; order: number[] };

/** One `channel_folder` event for these users (every active user of the organization), written with the change (outbox). */
export function channelFolderEvent(
  realmId: number,
  users: number[],
  event: ChannelFolderEvent,
): { def: EventDef<ClientEvent>; payload: ClientEvent } {
  return {
    def: Messaging.ChannelFolderEvents.channelFolderChanged,
    payload: { realmId, users, event: { type: 'channel_folder', ...event } },
  };
}

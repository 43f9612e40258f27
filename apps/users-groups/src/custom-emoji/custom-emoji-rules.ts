import { UsersGroups, type AuthUser } from '@teamchat/contracts';
import { badRequest, isGuestRole, resourceNotFound } from '@teamchat/zulip';
import type { CustomEmojiRow } from '../data/custom-emoji.repository';

/** The `realm_emoji.name` column's size. */
const MAX_EMOJI_NAME_LENGTH = 60;

/** The name as Zulip stores it: stripped, spaces made underscores (zerver/views/realm_emoji.py upload_emoji). */
export const normalizeEmojiName = (raw: string): string => raw.trim().replace(/ /g, '_');

/** Zulip's check_valid_emoji_name. */
export function checkEmojiName(name: string): void {
  if (!name) throw badRequest('Emoji name is missing');
  if (/^[0-9a-z_-]+$/.test(name)) {
    if (/[-_]$/.test(name)) throw badRequest('Emoji names must end with either a letter or digit.');
    // Zulip's model validation refuses a longer name, answered as the race on a name is.
    if (name.length > MAX_EMOJI_NAME_LENGTH) throw emojiExists();
    return;
  }
  throw badRequest('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
}

export const emojiExists = () => badRequest('A custom emoji with this name already exists.');
export const emojiNotFound = (name: string) => resourceNotFound(`Emoji '${name}' does not exist`);

/** Zulip's require_member_or_admin: neither guests nor bots upload emoji. */
export function requireMemberOrAdmin(user: AuthUser): void {
  if (isGuestRole(user.role)) throw badRequest('Not allowed for guest users');
  if (user.isBot) throw badRequest('This endpoint does not accept bot requests.');
}

/** Whether a name fits the column (a longer or NUL-bearing one names no emoji, and is not looked up). */
export const isStorableEmojiName = (name: string): boolean => name.length <= MAX_EMOJI_NAME_LENGTH && !name.includes('\0');

/**
 * The organization's emoji as `realm_emoji` and GET /realm/emoji list them, by id (Zulip's
 * get_all_custom_emoji_for_realm): deactivated ones included, an animated one with its still image.
 */
export function customEmojiMap(realmId: number, rows: CustomEmojiRow[]): Record<string, UsersGroups.RealmEmojiRecord> {
  return Object.fromEntries(
    rows.map((row) => [
      String(row.id),
      {
        id: String(row.id),
        name: row.name,
        source_url: `/user_avatars/${UsersGroups.customEmojiPath(realmId, row.fileName)}`,
        still_url: row.isAnimated ? `/user_avatars/${UsersGroups.customEmojiStillPath(realmId, row.fileName)}` : null,
        deactivated: row.deactivated,
        author_id: row.authorId,
      },
    ]),
  );
}

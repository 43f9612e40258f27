import type { AuthUser, UserRecord } from '@teamchat/contracts';
import type { ProfileValueRow } from '../data/profile-fields.repository';
import type { UserRow } from '../data/users.repository';
import { Role, avatarUrl } from '@teamchat/zulip';
import { UNKNOWN_USER_AVATAR_PATH, apiEmail, canSeeDeliveryEmail, dummyEmail } from '@teamchat/contracts';
import { resolveSettings } from '@teamchat/contracts';

export interface RecordOptions {
  /** null for a spectator (public access without logging in). */
  viewer: Pick<AuthUser, 'id' | 'role'> | null;
  realmHost: string;
  clientGravatar: boolean;
  profileData?: ProfileData;
}

/** Each user's custom profile field values, as `profile_data` shows them (field id → value). */
export type ProfileData = Map<number, Record<string, { value: string; rendered_value?: string }>>;

/** Stored values (ProfileFieldsRepository.valuesOfUsers) by user. */
export function profileDataOf(rows: ProfileValueRow[]): ProfileData {
  const byUser: ProfileData = new Map();
  for (const row of rows) {
    const entry = byUser.get(row.userId) ?? {};
    entry[String(row.fieldId)] = row.renderedValue === null ? { value: row.value } : { value: row.value, rendered_value: row.renderedValue };
    byUser.set(row.userId, entry);
  }
  return byUser;
}

/**
 * Zulip's `date_joined`: Python's `isoformat(timespec="minutes")` of a UTC time, e.g.
 * `2019-10-20T07:50+00:00` (zerver/lib/users.py format_user_row).
 */
export const isoformatMinutes = (date: Date): string => `${date.toISOString().slice(0, 16)}+00:00`;


/** A member record as Zulip formats it (zerver/lib/users.py format_user_row). */
export function toUserRecord(user: UserRow, options: RecordOptions): UserRecord {
  const visibility = resolveSettings(user.settings).email_address_visibility;
  const record: UserRecord = {
    user_id: user.id,
    email: apiEmail(user, visibility, options.realmHost),
    delivery_email: canSeeDeliveryEmail(options.viewer, user.id, user.isBot ? 1 : visibility) ? user.deliveryEmail : null,
    full_name: user.fullName,
    avatar_url: avatarUrl(user, { realmId: user.realmId, clientGravatar: options.clientGravatar }),
    avatar_version: user.avatarVersion,
    date_joined: options.viewer ? isoformatMinutes(user.dateJoined) : user.dateJoined.toISOString().slice(0, 10),
    is_active: user.isActive,
    is_admin: user.role <= Role.ADMINISTRATOR,
    is_owner: user.role === Role.OWNER,
    is_guest: user.role === Role.GUEST,
    is_bot: user.isBot,
    role: user.role,
    bot_type: user.isBot ? user.botType : null,
    // Spectators are not told anyone's time zone.
    ...(options.viewer ? { timezone: user.timezone } : {}),
  };
  if (user.isBot) {
    record.bot_owner_id = user.botOwnerId; // null for a bot whose owner is gone, as in Zulip
  } else if (options.profileData) {
    record.profile_data = options.profileData.get(user.id) ?? {};
  }
  return record;
}

/** The name Zulip shows for a user the viewer may not see (UserProfile.INACCESSIBLE_USER_NAME). */
export const UNKNOWN_USER_NAME = 'Unknown user';

/**
 * Zulip's record of a user the viewer may not see (zerver/lib/users.py
 * get_data_for_inaccessible_user): active, a member, "Unknown user", nothing of theirs but the id.
 */
export function unknownUserRecord(userId: number, realm: { host: string; url: string }): UserRecord {
  return {
    user_id: userId,
    email: dummyEmail(userId, realm.host),
    delivery_email: null,
    full_name: UNKNOWN_USER_NAME,
    avatar_url: new URL(UNKNOWN_USER_AVATAR_PATH, realm.url).href,
    avatar_version: 1,
    date_joined: '1970-01-01T00:00:00+00:00',
    is_active: true,
    is_admin: false,
    is_owner: false,
    is_guest: false,
    is_bot: false,
    role: Role.MEMBER,
    bot_type: null,
    timezone: '',
    profile_data: {},
  };
}

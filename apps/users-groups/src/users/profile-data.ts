import type { UsersGroups } from '@teamchat/contracts';
import { badRequest } from '@teamchat/zulip';
import MarkdownIt from 'markdown-it';
import type { ProfileFieldRow, ProfileFieldsRepository } from '../data/profile-fields.repository';
import type { PgTransaction } from '../data/transactions';
import type { UsersRepository } from '../data/users.repository';
import { CUSTOM_PROFILE_FIELD_TYPES as TYPES } from '../register/organization-state';

/** One field's new value: `value` null clears it. */
export interface ProfileWrite {
  fieldId: number;
  value: string | null;
  renderedValue: string | null;
}

/** A field whose stored value changed, as the `realm_user` update event's `custom_profile_field` says it. */
export interface ProfileFieldChange {
  id: number;
  value: string | null;
  rendered_value?: string;
}

/**
 * Checks `profile_data` (PATCH /users/{user_id}) as Zulip does: an empty value ("", [] or null)
 * clears the field, any other is checked by the field's type (zerver/lib/users.py
 * validate_user_custom_profile_data, zerver/models/custom_profile_fields.py). Clearings are
 * checked first, in order, then the values: the same order Zulip refuses them in. Nothing is
 * written here.
 */
export async function checkProfileData(
  profileFields: ProfileFieldsRepository,
  users: UsersRepository,
  realmId: number,
  entries: UsersGroups.ProfileDataEntry[],
): Promise<ProfileWrite[]> {
  const ids = [...new Set(entries.map((entry) => entry.id))];
  const fields = new Map((await profileFields.fieldsOfRealm(realmId, ids.filter(isInt32))).map((field) => [field.id, field]));
  const fieldOf = (id: number): ProfileFieldRow => {
    const field = fields.get(id);
    if (!field) throw badRequest(`Field id ${id} not found.`);
    return field;
  };

  const isEmpty = (value: UsersGroups.ProfileDataEntry['value']) => value === null || value.length === 0;
  for (const entry of entries) if (isEmpty(entry.value)) fieldOf(entry.id);
  const checked = new Map<UsersGroups.ProfileDataEntry, ProfileWrite>();
  for (const entry of entries) {
    if (isEmpty(entry.value)) continue;
    const field = fieldOf(entry.id);
    const value = await checkValue(users, realmId, field, entry.value!);
    checked.set(entry, { fieldId: field.id, value, renderedValue: RENDERED_TYPES.has(field.fieldType) ? renderProfileText(value) : null });
  }
  // Applied in the order sent, as Zulip applies them.
  return entries.map((entry) => checked.get(entry) ?? { fieldId: entry.id, value: null, renderedValue: null });
}

/** Writes checked values (in the caller's transaction); returns the fields whose value changed. */
export async function applyProfileData(
  profileFields: ProfileFieldsRepository,
  userId: number,
  writes: ProfileWrite[],
  tx: PgTransaction,
): Promise<ProfileFieldChange[]> {
  if (writes.length === 0) return [];
  const stored = new Map(
    (await profileFields.valuesOfUser(userId, [...new Set(writes.map((write) => write.fieldId))], tx)).map((row) => [row.fieldId, row.value]),
  );
  const changes: ProfileFieldChange[] = [];
  for (const write of writes) {
    if (write.value === null) {
      if (!stored.has(write.fieldId)) continue;
      await profileFields.clearValue(userId, write.fieldId, tx);
      stored.delete(write.fieldId);
      changes.push({ id: write.fieldId, value: null });
    } else {
      if (stored.get(write.fieldId) === write.value) continue;
      await profileFields.setValue(userId, write.fieldId, write.value, write.renderedValue, tx);
      stored.set(write.fieldId, write.value);
      changes.push({ id: write.fieldId, value: write.value, ...(write.renderedValue ? { rendered_value: write.renderedValue } : {}) });
    }
  }
  return changes;
}

/** The stored text of a value: strings as sent, a Users field's ids as JSON. */
export async function checkValue(users: UsersRepository, realmId: number, field: ProfileFieldRow, value: string | number[]): Promise<string> {
  const name = field.name;
  if (field.fieldType === TYPES.USER.id) {
    if (!Array.isArray(value)) throw badRequest('User IDs is not a list');
    const accounts = new Map((await users.accountsOfRealm(realmId, value.filter(isInt32))).map((account) => [account.id, account]));
    const missing = value.find((id) => !accounts.has(id));
    if (missing !== undefined) throw badRequest(`Invalid user ID: ${missing}`);
    for (const id of value) {
      const account = accounts.get(id)!;
      if (!account.isActive) throw badRequest(`User with ID ${id} is deactivated`);
      if (account.isBot) throw badRequest(`User with ID ${id} is a bot`);
    }
    return JSON.stringify(value);
  }
  if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
  switch (field.fieldType) {
    case TYPES.LONG_TEXT.id:
      return capped(name, value, 500);
    case TYPES.SELECT.id:
      if (!Object.prototype.hasOwnProperty.call(selectOptions(field.fieldData), value)) {
        throw badRequest(`'${value}' is not a valid choice for '${name}'.`);
      }
      return value;
    case TYPES.DATE.id:
      if (!isIsoDate(value)) throw badRequest(`${name} is not a date`);
      return value;
    case TYPES.URL.id:
      if (!isUrl(value)) throw badRequest(`${name} is not a URL`);
      return value;
    default:
      // Short text, external account, pronouns (and any type added later): a short string.
      return capped(name, value, 50);
  }
}

/** Text fields carry their Markdown rendering (Zulip's CustomProfileField.is_renderable). */
export const RENDERED_TYPES = new Set([TYPES.SHORT_TEXT.id, TYPES.LONG_TEXT.id]);

function capped(name: string, value: string, limit: number): string {
  if ([...value].length > limit) throw badRequest(`${name} is too long (limit: ${limit} characters)`);
  return value;
}

function selectOptions(fieldData: string): Record<string, unknown> {
  try {
    const options: unknown = JSON.parse(fieldData);
    return options && typeof options === 'object' && !Array.isArray(options) ? (options as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Python's `date.fromisoformat(v).isoformat() == v`: exactly YYYY-MM-DD, a real day, year 1 or later. */
function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate(); // a leap year for February…
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= (month === 2 && !leap ? 28 : daysInMonth);
}

/** Close to Django's URLValidator: http(s) or ftp(s), a host with a domain (or localhost or an IP), no spaces. */
function isUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (!['http:', 'https:', 'ftp:', 'ftps:'].includes(url.protocol)) return false;
  const host = url.hostname;
  return host === 'localhost' || host.startsWith('[') || /^[^.]+(\.[^.]+)*\.[a-z\u00a1-\uffff-]{2,}\.?$/i.test(host) || /^\d+(\.\d+){3}$/.test(host);
}

const isInt32 = (id: number) => Number.isSafeInteger(id) && id >= -2_147_483_648 && id <= 2_147_483_647;

/** Zulip renders text profile fields with its Markdown processor; raw HTML is escaped, links open outside. */
const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
const defaultLinkOpen = markdown.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet('target', '_blank');
  tokens[idx].attrSet('rel', 'noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export const renderProfileText = (text: string): string => markdown.render(text).trimEnd();

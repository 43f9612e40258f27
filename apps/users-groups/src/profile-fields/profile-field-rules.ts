import { UsersGroups, type ClientEvent, type EventDef } from '@teamchat/contracts';
import type { CustomProfileFieldModel } from '@teamchat/db';
import { badRequest } from '@teamchat/zulip';
import { CUSTOM_PROFILE_FIELD_TYPES as TYPES, customProfileFieldRecord } from '../register/organization-state';

export type FieldData = Record<string, unknown>;

/** Zulip's DEFAULT_EXTERNAL_ACCOUNTS: a field of one of these subtypes takes its name from here. */
export const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { name: string; hint: string }> = {
  twitter: { name: 'Twitter username', hint: '' },
  github: { name: 'GitHub username', hint: '' },
};

const FIELD_TYPE_IDS = new Set(Object.values(TYPES).map((type) => type.id));

export const fieldNotFound = (id: number) => badRequest(`Field id ${id} not found.`);
export const labelTaken = () => badRequest('A field with that label already exists.');
export const summaryLimitReached = () =>
  badRequest(`Only ${UsersGroups.MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`);

/** The parameter's own check (check_profile_field_data): each value a string or an object of strings. */
export function checkFieldDataShape(data: FieldData): void {
  for (const value of Object.values(data)) {
    const ok = typeof value === 'string' || (isObject(value) && Object.values(value).every((inner) => typeof inner === 'string'));
    if (!ok) throw badRequest('field_data contains a value that is not an allowed_type');
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** check_dict_only with required (non-blank) and optional string keys, Zulip's texts. */
function checkDictOnly(value: unknown, name: string, required: string[], optional: Record<string, (text: string) => void> = {}): Record<string, string> {
  if (!isObject(value)) throw badRequest(`${name} is not a dict`);
  for (const key of required) {
    if (!(key in value)) throw badRequest(`${key} key is missing from ${name}`);
    const text = value[key];
    if (typeof text !== 'string') throw badRequest(`${name}["${key}"] is not a string`);
    if (!text.trim()) throw badRequest(`${name}["${key}"] cannot be blank.`);
  }
  for (const [key, check] of Object.entries(optional)) {
    if (!(key in value)) continue;
    if (typeof value[key] !== 'string') throw badRequest(`${name}["${key}"] is not a string`);
    check(value[key] as string);
  }
  const unexpected = Object.keys(value).filter((key) => !required.includes(key) && !(key in optional));
  if (unexpected.length > 0) throw badRequest(`Unexpected arguments: ${unexpected.join(', ')}`);
  return value as Record<string, string>;
}

/** validate_custom_field_data: a select's options, an external account's subtype and URL pattern. */
function checkFieldData(fieldType: number, data: FieldData): void {
  if (fieldType === TYPES.SELECT.id) {
    if (Object.keys(data).length < 1) throw badRequest('Field must have at least one choice.');
    const texts = new Set<string>();
    for (const [key, option] of Object.entries(data)) {
      if (!key.trim()) throw badRequest("'value' cannot be blank.");
      texts.add(checkDictOnly(option, 'field_data', ['text', 'order']).text);
    }
    if (texts.size !== Object.keys(data).length) throw badRequest('Field must not have duplicate choices.');
  } else if (fieldType === TYPES.EXTERNAL_ACCOUNT.id) {
    checkDictOnly(data, 'field_data', ['subtype'], { url_pattern: checkUrlPattern });
    const subtype = data.subtype as string;
    if (!(subtype in DEFAULT_EXTERNAL_ACCOUNTS)) {
      if (subtype !== 'custom') throw badRequest('Invalid external account type');
      if (!('url_pattern' in data)) throw badRequest('Custom external account must define URL pattern');
    }
  }
}

/** check_external_account_url_pattern: exactly one `%(username)s`, a URL once it is filled in. */
function checkUrlPattern(pattern: string): void {
  if (pattern.split('%(username)s').length !== 2) throw badRequest("URL pattern must contain '%(username)s'.");
  let url: URL | null = null;
  try {
    url = new URL(pattern.replace('%(username)s', 'username'));
  } catch {
    url = null;
  }
  if (!url || !['http:', 'https:', 'ftp:', 'ftps:'].includes(url.protocol) || !url.hostname || /\s/.test(pattern)) {
    throw badRequest('field_data["url_pattern"] is not a URL');
  }
}

/** A default external account (GitHub, Twitter): its name and hint are Zulip's. */
export const isDefaultExternal = (fieldType: number, data: FieldData): boolean =>
  fieldType === TYPES.EXTERNAL_ACCOUNT.id && data.subtype !== 'custom';

/**
 * validate_custom_profile_field: the field data, then (but for a default external account) the
 * label and hint, then the type, then whether the type may be shown in profile summaries.
 */
export function checkField(field: { name: string; hint: string; fieldType: number; fieldData: FieldData; displayInProfileSummary: boolean }): void {
  checkFieldData(field.fieldType, field.fieldData);
  if (!isDefaultExternal(field.fieldType, field.fieldData)) {
    if (!field.name.trim()) throw badRequest('Label cannot be blank.');
    if ([...field.hint].length > UsersGroups.PROFILE_FIELD_HINT_MAX_LENGTH) {
      throw badRequest(`hint is too long (limit: ${UsersGroups.PROFILE_FIELD_HINT_MAX_LENGTH} characters)`);
    }
    if ([...field.name].length > UsersGroups.PROFILE_FIELD_NAME_MAX_LENGTH) {
      throw badRequest(`name is too long (limit: ${UsersGroups.PROFILE_FIELD_NAME_MAX_LENGTH} characters)`);
    }
  }
  if (!FIELD_TYPE_IDS.has(field.fieldType)) throw badRequest('Invalid field type.');
  if (field.displayInProfileSummary && (field.fieldType === TYPES.LONG_TEXT.id || field.fieldType === TYPES.USER.id)) {
    throw badRequest('Field type not supported for display in profile summary.');
  }
}

/** A stored field's data as an object ("" is none). */
export const storedFieldData = (field: CustomProfileFieldModel): FieldData => (field.fieldData ? (JSON.parse(field.fieldData) as FieldData) : {});

/** Only select and external account fields keep their data. */
export const keepsFieldData = (fieldType: number) => fieldType === TYPES.SELECT.id || fieldType === TYPES.EXTERNAL_ACCOUNT.id;

/** The `custom_profile_fields` event: every field of the organization, in order, to every active user. */
export function profileFieldsEvent(realmId: number, users: number[], fields: CustomProfileFieldModel[]): { def: EventDef<ClientEvent>; payload: ClientEvent } {
  return {
    def: UsersGroups.ProfileFieldEvents.profileFieldsChanged as EventDef<ClientEvent>,
    payload: { realmId, users, event: { type: 'custom_profile_fields', fields: fields.map(customProfileFieldRecord) } },
  };
}

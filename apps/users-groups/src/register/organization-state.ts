import type { RealmModel } from '@teamchat/db';
import { realmImages } from '../realm-settings/realm-setting-values';

/** Zulip's custom profile field types, keyed by name (CustomProfileField.ALL_FIELD_TYPES). */
export const CUSTOM_PROFILE_FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: 'Text (short)' },
  LONG_TEXT: { id: 2, name: 'Text (long)' },
  SELECT: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Users' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
};

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * The `realm_*` organization keys users-groups serves beside the catalogue's settings (fetch key
 * `realm`). The gateway adds the URL and server-wide constants.
 */
export function organizationState(realm: RealmModel, realmUrl: string): Record<string, unknown> {
  const images = realmImages(realm, realmUrl);
  return {
    // The settings PATCH /realm changes come from its catalogue (realmSettingsState); these are the others.
    realm_date_created: seconds(realm.dateCreated),
    realm_password_auth_enabled: realm.passwordAuthEnabled,
    // Email-and-password is the only way in, so Zulip's two flags coincide.
    realm_email_auth_enabled: realm.passwordAuthEnabled,
    realm_authentication_methods: { Email: { enabled: realm.passwordAuthEnabled, available: true } },
    realm_icon_url: images.icon_url,
    realm_icon_source: images.icon_source,
    realm_logo_url: images.logo_url,
    realm_logo_source: images.logo_source,
    realm_night_logo_url: images.night_logo_url,
    realm_night_logo_source: images.night_logo_source,
    // Presence is on for every organization; there is no Zephyr mirroring.
    realm_presence_disabled: false,
    realm_is_zephyr_mirror_realm: false,
  };
}

/** A custom profile field as Zulip's CustomProfileField.as_dict writes it. */
export function customProfileFieldRecord(field: {
  id: number;
  name: string;
  fieldType: number;
  hint: string;
  fieldData: string;
  order: number;
  required: boolean;
  editableByUser: boolean;
  displayInProfileSummary: boolean;
}): Record<string, unknown> {
  return {
    id: field.id,
    name: field.name,
    type: field.fieldType,
    hint: field.hint,
    field_data: field.fieldData,
    order: field.order,
    required: field.required,
    editable_by_user: field.editableByUser,
    ...(field.displayInProfileSummary ? { display_in_profile_summary: true } : {}),
  };
}

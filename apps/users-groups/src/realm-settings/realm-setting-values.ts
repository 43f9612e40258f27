import type { RealmModel } from '@teamchat/db';
import { UsersGroups, type GroupSettingValue } from '@teamchat/contracts';

const { REALM_SETTINGS, REALM_SETTING_NAMES, EDIT_HISTORY_POLICIES, TOPICS_POLICIES } = UsersGroups;

/** A catalogue column's stored value. */
export const storedValue = (realm: RealmModel, column: string): unknown => (realm as unknown as Record<string, unknown>)[column];

/** Zulip's default images: the square icon (no Gravatar here) and the wide logo. */
const DEFAULT_LOGO_URL = '/static/images/logo/zulip-org-logo.svg?version=0';

/** Where the organization's images are (Zulip's realm_icon_url, get_realm_logo_url): uploaded ones under /user_avatars. */
export function realmImages(realm: Pick<RealmModel, 'id' | 'iconSource' | 'iconVersion' | 'logoSource' | 'logoVersion' | 'nightLogoSource' | 'nightLogoVersion'>, realmUrl: string) {
  const uploaded = (file: string, version: number) => `/user_avatars/${realm.id}/realm/${file}?version=${version}`;
  return {
    icon_url: realm.iconSource === 'U' ? uploaded('icon.png', realm.iconVersion) : `${realmUrl}/static/images/logo/zulip-icon-128x128.png`,
    icon_source: realm.iconSource,
    logo_url: realm.logoSource === 'U' ? uploaded('logo.png', realm.logoVersion) : DEFAULT_LOGO_URL,
    logo_source: realm.logoSource,
    night_logo_url: realm.nightLogoSource === 'U' ? uploaded('night_logo.png', realm.nightLogoVersion) : DEFAULT_LOGO_URL,
    night_logo_source: realm.nightLogoSource,
  };
}

/** The group holding a setting: its column, or the setting's default system group when unset. */
export function settingGroupId(realm: RealmModel, name: UsersGroups.RealmGroupSettingName, systemGroups: Map<string, number>): number {
  const def = REALM_SETTINGS[name];
  return (storedValue(realm, def.column) as number | null) ?? systemGroups.get(def.defaultGroup)!;
}

/**
 * The organization's settings of the catalogue as POST /register shows them (`realm_<name>`),
 * with the deprecated keys Zulip derives from them (allow_edit_history, mandatory_topics).
 */
export function realmSettingsState(realm: RealmModel, systemGroups: Map<string, number>, groupValues: Map<number, GroupSettingValue>): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  for (const name of REALM_SETTING_NAMES) {
    const def = REALM_SETTINGS[name] as UsersGroups.RealmSettingDef;
    if (def.kind === 'property') state[`realm_${name}`] = def.toApi(storedValue(realm, def.column));
    else if (def.kind === 'channel') state[`realm_${name}`] = (storedValue(realm, def.column) as number | null) ?? -1;
    else state[`realm_${name}`] = groupValues.get(settingGroupId(realm, name as UsersGroups.RealmGroupSettingName, systemGroups));
  }
  state.realm_allow_edit_history = realm.messageEditHistoryVisibilityPolicy !== EDIT_HISTORY_POLICIES.none;
  state.realm_mandatory_topics = realm.topicsPolicy === TOPICS_POLICIES.disable_empty_topic;
  return state;
}

/** Every group a setting of the organization holds (to read their values at once). */
export function realmSettingGroupIds(realm: RealmModel, systemGroups: Map<string, number>): number[] {
  return [...new Set(UsersGroups.REALM_GROUP_SETTING_NAMES.map((name) => settingGroupId(realm, name, systemGroups)))];
}

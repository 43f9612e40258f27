import { Inject, Injectable } from '@nestjs/common';
import { Realtime, UsersGroups } from '@teamchat/contracts';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import type { RealmModel, UserModel } from '@teamchat/db';
import { Role, avatarUrl, isModeratorOrAbove } from '@teamchat/zulip';
import { GROUP_PERMISSION_SETTINGS } from '../groups/permission-settings';
import { RealmSettingsRepository } from '../data/realm-settings.repository';
import { realmSettingGroupIds, realmSettingsState } from '../realm-settings/realm-setting-values';
import { toRealmDomainRecord } from '../realm-settings/realm-domain-rules';
import { CustomEmojiRepository } from '../data/custom-emoji.repository';
import { customEmojiMap } from '../custom-emoji/custom-emoji-rules';
import { NavigationViewsRepository } from '../data/navigation-views.repository';
import { OrganizationsRepository } from '../data/organizations.repository';
import { ProfileFieldsRepository } from '../data/profile-fields.repository';
import { UsersRepository } from '../data/users.repository';
import { UserGroupRecords } from '../groups/user-group-records';
import { RealmDirectory } from '../realms/realm-directory';
import { navigationViewsOf } from '../navigation-views/list-navigation-views.use-case';
import { toUserRecord } from '../users/user-record';
import { BotRecords, type RealmBotRecord } from '../bots/bot-records';
import { CUSTOM_PROFILE_FIELD_TYPES, customProfileFieldRecord, organizationState } from './organization-state';
import { legacySettingsState, settingsDefaultsState, userSettingsState } from './settings-state';
import { videoCallState } from '../video-calls/video-call-providers';

type State = Record<string, unknown>;

/**
 * The part of POST /register's initial state users-groups owns (zerver/lib/events.py
 * fetch_initial_state_data): organization settings, the caller's settings and the
 * organization's defaults, the caller's own identity, user groups, custom profile fields,
 * navigation views, custom emoji, bots and email domains. Every read is a named pg statement (no
 * Prisma query on this path), run together, each only when its keys are asked for; the
 * organization's row is read once. The people are the gateway's (RegisterPeople, filled by
 * ListUsers.page).
 */
@Injectable()
export class RegisterStateReader {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly users: UsersRepository,
    private readonly profileFields: ProfileFieldsRepository,
    private readonly navigationViews: NavigationViewsRepository,
    private readonly customEmoji: CustomEmojiRepository,
    private readonly realms: RealmDirectory,
    private readonly groups: UserGroupRecords,
    private readonly realmSettings: RealmSettingsRepository,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'JITSI_SERVER_URL' | 'BIG_BLUE_BUTTON_URL' | 'BIG_BLUE_BUTTON_SECRET'>,
    private readonly bots: BotRecords,
  ) {}

  async read(request: Realtime.RegisterStateRequest): Promise<State> {
    const want = (key: string) => Realtime.wants(request, key);
    const legacyDisplay = want('update_display_settings') && !request.capabilities.user_settings_object;
    const legacyNotifications = want('update_global_notifications') && !request.capabilities.user_settings_object;
    const settingsWanted = want('user_settings') || legacyDisplay || legacyNotifications;
    // The organization's row, read once for the caller's part and the settings' part.
    let organization: Promise<RealmModel> | undefined;
    const theOrganization = () => (organization ??= this.organizations.byIdOrThrow(request.realm.id));

    const [caller, fields, realmSettings, userGroups, navigationViews, emoji, bots, domains] = await Promise.all([
      want('realm') || settingsWanted || want('realm_user_settings_defaults') || want('realm_user') ? this.caller(request, theOrganization()) : null,
      want('custom_profile_fields') ? this.profileFields.ofRealm(request.realm.id) : null,
      want('realm') ? this.realmSettingsOf(request.realm.id, theOrganization()) : null,
      want('realm_user_groups')
        ? this.groups.records(request.realm.id, { includeDeactivated: request.capabilities.include_deactivated_groups === true })
        : null,
      want('navigation_views') ? navigationViewsOf(this.navigationViews, request.user.id) : null,
      want('realm_emoji') ? this.realmEmoji(request.realm.id) : null,
      want('realm_bot') ? this.realmBots(request) : null,
      want('realm_domains') ? this.realmSettings.domains(request.realm.id) : null,
    ]);

    const state: State = {};
    if (caller && realmSettings) {
      Object.assign(state, organizationState(caller.realm, this.realms.urlOf(caller.realm.subdomain)), realmSettings);
      Object.assign(state, videoCallState(caller.realm, this.config));
      // The `stream` part comes from messaging; the gateway joins them.
      state.server_supported_permission_settings = supportedPermissionSettings();
    }
    if (caller && settingsWanted) {
      const settings = userSettingsState(caller, caller.realm.userSettingsDefaults);
      if (want('user_settings')) state.user_settings = settings;
      Object.assign(state, legacySettingsState(settings, legacyDisplay, legacyNotifications));
    }
    if (caller && want('realm_user_settings_defaults')) {
      state.realm_user_settings_defaults = settingsDefaultsState(caller.realm.userSettingsDefaults);
    }
    // The people themselves come from the gateway's cache (Realtime.registerPeople).
    if (caller && want('realm_user')) Object.assign(state, this.identity(caller, request));
    if (userGroups) state.realm_user_groups = userGroups;
    if (navigationViews) state.navigation_views = navigationViews;
    if (emoji) state.realm_emoji = emoji;
    if (bots) state.realm_bots = bots;
    if (domains) state.realm_domains = domains.map(toRealmDomainRecord);
    if (fields) {
      state.custom_profile_fields = fields.map(customProfileFieldRecord);
      state.custom_profile_field_types = CUSTOM_PROFILE_FIELD_TYPES;
    }
    return state;
  }

  private async caller({ realm, user }: Realtime.RegisterStateRequest, organization: Promise<RealmModel>): Promise<UserModel & { realm: RealmModel }> {
    const [account, row] = await Promise.all([this.users.wholeOfRealm(realm.id, user.id), organization]);
    return { ...account, realm: row };
  }

  /** The caller's own keys (fetch key `realm_user`); the own avatar URL never defers to the client's Gravatar. */
  private identity(caller: UserModel & { realm: RealmModel }, { user }: Realtime.RegisterStateRequest): State {
    const own = toUserRecord(caller, { viewer: user, realmHost: this.realms.hostnameOf(caller.realm.subdomain), clientGravatar: false });
    return {
      user_id: own.user_id,
      email: own.email,
      delivery_email: caller.deliveryEmail,
      full_name: own.full_name,
      avatar_source: caller.avatarSource,
      avatar_url: own.avatar_url,
      avatar_url_medium: avatarUrl(caller, { realmId: caller.realmId, medium: true }),
      is_admin: own.is_admin,
      is_owner: own.is_owner,
      is_moderator: isModeratorOrAbove(caller.role),
      is_guest: own.is_guest,
    };
  }

  /**
   * `realm_emoji`: the organization's custom emoji by id, deactivated ones included (Zulip's
   * get_all_custom_emoji_for_realm), each served from the organization's upload path.
   */
  private async realmEmoji(realmId: number): Promise<State> {
    return customEmojiMap(realmId, await this.customEmoji.ofRealm(realmId));
  }

  /**
   * `realm_bots` (fetch key `realm_bot`): every bot of the organization for administrators,
   * the caller's own bots otherwise, deactivated ones included (Zulip's get_owned_bot_dicts),
   * with their default channels and services (BotRecords).
   */
  private realmBots({ realm, user }: Realtime.RegisterStateRequest): Promise<RealmBotRecord[]> {
    return this.bots.of(realm.id, user.role <= Role.ADMINISTRATOR ? {} : { ownerId: user.id });
  }

  /** The organization's settings of PATCH /realm's catalogue, the group-based ones as group-setting values. */
  private async realmSettingsOf(realmId: number, organization: Promise<RealmModel>): Promise<State> {
    const [realm, systemGroups] = await Promise.all([organization, this.groups.systemGroupIds(realmId)]);
    const values = await this.groups.settingValues(realmSettingGroupIds(realm, systemGroups));
    return { realm_name: realm.name, ...realmSettingsState(realm, systemGroups, values) };
  }
}

/** `server_supported_permission_settings`' `realm` and `group` parts, from the settings' own tables. */
function supportedPermissionSettings(): { realm: State; group: State } {
  const realm = Object.fromEntries(
    UsersGroups.REALM_GROUP_SETTING_NAMES.map((name) => {
      const def = UsersGroups.REALM_SETTINGS[name] as UsersGroups.RealmGroupSettingDef;
      return [
        name,
        Realtime.permissionSettingDescription({
          allowEveryone: def.allowEveryone,
          allowNobody: def.allowNobody,
          defaultGroupName: def.defaultGroup,
          requireSystemGroup: def.requireSystemGroup,
          allowedSystemGroups: def.allowedSystemGroups,
        }),
      ];
    }),
  );
  const group = Object.fromEntries(
    Object.entries(GROUP_PERMISSION_SETTINGS).map(([name, config]) => [
      name,
      Realtime.permissionSettingDescription({
        allowEveryone: config.allowEveryone,
        allowNobody: config.allowNobody,
        defaultGroupName: config.default === 'creator' ? 'group_creator' : config.default,
      }),
    ]),
  );
  return { realm, group };
}

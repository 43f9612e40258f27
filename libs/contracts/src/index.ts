export * from './services';
export * from './subject';
export * from './command';
export * from './health';
export * from './event';
export * from './api/api-schemas';
export * from './api/endpoint';
export * from './api/openapi-document';
export { serverSettings } from './server-settings';
export * as UsersGroups from './users-groups';
export type { RealmInfo, Authenticated, AuthenticatedOrRefused, UserRecord, FetchApiKeyResult, GroupSettingValue, GroupSettingChange, GroupPermissionSettingName, UserGroupRecord } from './users-groups';
export {
  USER_SETTINGS,
  GROUP_PERMISSION_SETTING_NAMES,
  NOTIFICATION_SOUNDS,
  builtinSettingDefaults,
  resolveSettings,
  settingsChangedBy,
  languageName,
  apiEmail,
  dummyEmail,
  UNKNOWN_USER_AVATAR_PATH,
  canSeeDeliveryEmail,
  EmailVisibility,
  type SettingName,
  type SettingsEndpoint,
  type UserSettings,
} from './users-groups';
export * as Messaging from './messaging';
export { CHANNEL_PERMISSION_SETTING_NAMES, type ChannelPermissionSettingName } from './messaging';
export type { ChannelRecord, SubscriptionRecord, SubscribeResult, NarrowTerm, NarrowTermParts, MessagesPage, SendMessageResult } from './messaging';
export { MessagingEvents, narrowTermParts } from './messaging';
export { UsersGroupsEvents } from './users-groups';
export { BotType, ServiceInterface, type BotServiceRecord } from './users-groups';
export * as Presence from './presence';
export { PresenceEvents } from './presence';
export * as Scheduler from './scheduler';
export { SchedulerEvents } from './scheduler';
export * as Push from './push';
export { PushEvents } from './push';
export * as Realtime from './realtime';
export * as Uploads from './uploads';
export { linkedPathIds, TUS_PATH, type AttachmentRecord } from './uploads';

export * from './services';
export * from './subject';
export * from './command';
export * from './health';
export * from './event';
export * as UsersGroups from './users-groups';
export type { RealmInfo, UserRecord, FetchApiKeyResult } from './users-groups';
export * as Messaging from './messaging';
export type { ChannelRecord, SubscriptionRecord, SubscribeResult } from './messaging';

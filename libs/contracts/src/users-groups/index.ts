export * from './identity';
export * from './users';
export * from './user-settings';
export * from './email-visibility';
export * from './settings';
export * from './user-groups';
export * from './navigation-views';
export * from './user-administration';

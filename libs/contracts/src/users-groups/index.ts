export * from './identity';
export * from './users';
export * from './user-settings';
export * from './email-visibility';
export * from './settings';
export * from './user-administration';

export * from './identity';
export * from './users';
export * from './user-settings';
export * from './languages';
export * from './email-visibility';
export * from './settings';

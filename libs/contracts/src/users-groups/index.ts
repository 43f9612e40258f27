export * from './identity';
export * from './users';

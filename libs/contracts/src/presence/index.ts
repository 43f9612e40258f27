export * from './typing';
export * from './status';
export * from './events';
export * from './presence';
export * from './edit-typing';

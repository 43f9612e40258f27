export * from './version';
export * from './limits';
export * from './errors';
export * from './roles';
export * from './params/param-spec';
export * from './params/decode-params';
export * from './avatars';

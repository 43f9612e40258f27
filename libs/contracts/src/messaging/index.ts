export * from './channels';
export * from './events';
export * from './drafts';
export * from './topics';
export * from './messages';
export * from './typing';
export * from './channel-folders';
export * from './message-access';

export * from './scheduled-messages';
export * from './events';

export * from './scheduled-messages';
export * from './events';
export * from './reminders';

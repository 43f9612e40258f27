export * from './devices';
export * from './events';
export * from './legacy-tokens';
export * from './notifications';

export * from './devices';
export * from './events';

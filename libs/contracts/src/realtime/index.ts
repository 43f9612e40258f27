export * from './register-state';
export * from './endpoints';
export * from './client-events';
export * from './register-response';
export * from './defaults-until-feature';

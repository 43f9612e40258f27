export * from './register-state';

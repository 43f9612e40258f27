export * from './api-client';
export * from './factories';
export * from './openapi';
export * from './system';
export * from './databases';
export * from './test-environment';
export * from './expectations';
export * from './event-recorder';

// The hostile-input test's helpers (apps/gateway/test/hostile-input.spec.ts), exported as `Hostile` from @teamchat/testing.
export * from './values';
export * from './requests';
export * from './http';
export * from './report';

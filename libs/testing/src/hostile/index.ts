// The hostile-input test's helpers (apps/gateway/test/hostile-input.spec.ts imports them from here).
export * from './values';
export * from './requests';
export * from './http';
export * from './report';

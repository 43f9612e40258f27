import type { NextFunction, Request, Response } from 'express';
import type { ApiRequest } from './request-context';
import { requestIdWithin } from './request-id.middleware';

/** Every request gets its id and its time, which the commands it calls share (CommandClient.call's `within`). */
describe('requestIdWithin', () => {
  it('gives the request an id and the time it may take, from its arrival', () => {
    const headers: Record<string, string> = {};
    const req = { headers: { 'x-request-id': 'given-id' } } as unknown as Request;
    const res = { setHeader: (name: string, value: string) => void (headers[name] = value) } as unknown as Response;
    let nextCalled = 0;
    const before = Date.now();
    requestIdWithin(5000)(req, res, (() => void nextCalled++) as NextFunction);
    const after = Date.now();
    const { ctx } = req as ApiRequest;
    expect(ctx.requestId).toBe('given-id');
    expect(headers['X-Request-Id']).toBe('given-id');
    expect(nextCalled).toBe(1);
    expect(ctx.time!.expires - ctx.time!.deadline).toBe(1000);
    expect(ctx.time!.expires).toBeGreaterThanOrEqual(before + 5000);
    expect(ctx.time!.expires).toBeLessThanOrEqual(after + 5000);
  });
});

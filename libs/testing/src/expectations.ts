import type { ApiResponse } from './api-client';

/**
 * Asserts a Zulip error response exactly: the status, and a body of `result`, `msg`, `code`
 * and the given extra fields, nothing else. Status and body are compared together so a
 * failure shows both.
 */
export function expectError(
  res: ApiResponse<unknown>,
  status: number,
  code: string,
  msg: string,
  extra: Record<string, unknown> = {},
): void {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { result: 'error', msg, code, ...extra } });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
}

/** Asserts a 200 success envelope and returns its body for further checks. */
export function expectSuccess<T = Record<string, unknown>>(res: ApiResponse<T>): T {
  expect({ status: res.status, result: (res.body as { result?: unknown }).result, msg: (res.body as { msg?: unknown }).msg }).toEqual(
    { status: 200, result: 'success', msg: '' },
  );
  return res.body;
}

/** No response may show internals: stack frames, exception names, source paths. */
export function expectNoInternals(res: ApiResponse<unknown>): void {
  const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
  expect(text).not.toMatch(/Error:|\bat \S+ \(|\.[jt]s:\d+|node_modules|\/dist\/|\/apps\/|\/libs\//);
}

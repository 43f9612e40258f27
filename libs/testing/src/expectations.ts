import type { ApiResponse, Credentials } from './api-client';

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

/**
 * What every authenticated endpoint refuses, with Zulip's 401s: no credentials, a wrong key,
 * a user of another organization and a deactivated user (the last two when given).
 */
export async function expectCallersRefused(
  send: (options: { subdomain: string; auth?: Credentials }) => Promise<ApiResponse<unknown>>,
  who: { subdomain: string; member: Credentials; outsider?: Credentials; deactivated?: Credentials },
): Promise<void> {
  const { subdomain, member, outsider, deactivated } = who;
  expectError(await send({ subdomain }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  expectError(await send({ subdomain, auth: { email: member.email, apiKey: 'x'.repeat(32) } }), 401, 'UNAUTHORIZED', 'Invalid API key');
  if (outsider) {
    expectError(await send({ subdomain, auth: outsider }), 401, 'UNAUTHORIZED', 'Account is not associated with this subdomain');
  }
  if (deactivated) expectError(await send({ subdomain, auth: deactivated }), 401, 'UNAUTHORIZED', 'Account is deactivated');
}

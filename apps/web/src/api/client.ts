/**
 * The one way the app calls the server: `/json/<path>` with the session cookie (sent by the
 * browser) and, on anything but a GET, the CSRF token from the `csrftoken` cookie in
 * `X-CSRFToken`, as Zulip's web app does. Parameters go as a form (strings as they are, other
 * values as JSON), answers are Zulip's envelope.
 */
export type ParamValue = string | number | boolean | object | undefined;
export type Params = Record<string, ParamValue>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Called when the server says the session is gone (401): the app shows the login page. */
let onLoggedOut: () => void = () => undefined;
export function whenLoggedOut(handler: () => void): void {
  onLoggedOut = handler;
}

export function csrfToken(): string {
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === 'csrftoken') return rest.join('=');
  }
  return '';
}

/** Tells the app the session is gone (a 401 from the server): it shows the login page. */
export function sessionEnded(): void {
  onLoggedOut();
}

/** Parameters as Zulip takes them in a form: strings as they are, other values as JSON. */
export function encode(params: Params): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
}

async function send<T>(method: string, url: string, params: Params, signal?: AbortSignal): Promise<T> {
  const form = encode(params);
  const init: RequestInit = { method, credentials: 'same-origin', signal, headers: { Accept: 'application/json' } };
  if (method === 'GET') {
    const query = form.toString();
    if (query) url += `?${query}`;
  } else {
    init.headers = { ...init.headers, 'Content-Type': 'application/x-www-form-urlencoded', 'X-CSRFToken': csrfToken() };
    init.body = form;
  }
  const res = await fetch(url, init);
  let body: { result?: string; msg?: string; code?: string } & Record<string, unknown>;
  try {
    body = (await res.json()) as typeof body;
  } catch {
    throw new ApiError(res.status, 'BAD_RESPONSE', `The server answered ${res.status}`);
  }
  if (!res.ok || body.result !== 'success') {
    const error = new ApiError(res.status, body.code ?? 'BAD_REQUEST', body.msg ?? `The server answered ${res.status}`);
    if (res.status === 401 && !url.startsWith('/accounts/')) onLoggedOut();
    throw error;
  }
  return body as T;
}

export const api = {
  get: <T>(path: string, params: Params = {}, signal?: AbortSignal) => send<T>('GET', `/json${path}`, params, signal),
  post: <T>(path: string, params: Params = {}, signal?: AbortSignal) => send<T>('POST', `/json${path}`, params, signal),
  patch: <T>(path: string, params: Params = {}) => send<T>('PATCH', `/json${path}`, params),
  delete: <T>(path: string, params: Params = {}) => send<T>('DELETE', `/json${path}`, params),
};

/**
 * Sends one file as multipart form data (an avatar, a custom emoji: the server reads one image),
 * with the CSRF token, and answers Zulip's envelope as `api` does.
 */
export async function postFile<T>(path: string, file: File, fields: Record<string, string> = {}): Promise<T> {
  const form = new FormData();
  // Other parameters (the logo's `night`) go as fields of the same form.
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', file, file.name);
  const res = await fetch(`/json${path}`, { method: 'POST', credentials: 'same-origin', body: form, headers: { Accept: 'application/json', 'X-CSRFToken': csrfToken() } });
  let body: { result?: string; msg?: string; code?: string } & Record<string, unknown>;
  try {
    body = (await res.json()) as typeof body;
  } catch {
    throw new ApiError(res.status, 'BAD_RESPONSE', `The server answered ${res.status}`);
  }
  if (!res.ok || body.result !== 'success') {
    if (res.status === 401) onLoggedOut();
    throw new ApiError(res.status, body.code ?? 'BAD_REQUEST', body.msg ?? `The server answered ${res.status}`);
  }
  return body as T;
}

export interface LoginResult {
  user_id: number;
  email: string;
  full_name: string;
}

export const logIn = (email: string, password: string) => send<LoginResult>('POST', '/accounts/login', { username: email, password });
export const logOut = () => send<object>('POST', '/accounts/logout', {});

import http from 'node:http';

/** A response as the tests look at it. */
export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Credentials {
  email: string;
  apiKey: string;
}

export interface RequestOptions {
  auth?: Credentials | string;
  /** The organization's subdomain ("" for the root one); sets the Host header. */
  subdomain?: string;
  headers?: Record<string, string>;
  /** Send the body as multipart/form-data instead of form-urlencoded. */
  multipart?: boolean;
}

export type FormValue = string | number | boolean | unknown[] | Record<string, unknown>;

/** Encodes a value the way Zulip clients do: strings as they are, everything else as JSON. */
export const encodeValue = (value: FormValue): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * A fresh connection per request: a reused keep-alive socket that the server is closing at the
 * same moment fails as "socket hang up", which no test means to exercise.
 */
const NO_KEEP_ALIVE = new http.Agent({ keepAlive: false });

/** Speaks to the gateway as a Zulip client does: Basic auth, form bodies, JSON-encoded lists. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly rootHost: string,
  ) {}

  hostFor(subdomain = ''): string {
    return subdomain ? `${subdomain}.${this.rootHost}` : this.rootHost;
  }

  get<T = Record<string, unknown>>(path: string, query: Record<string, FormValue> = {}, options: RequestOptions = {}) {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, encodeValue(v)] as [string, string])).toString();
    return this.request<T>('GET', `${path}${search ? `?${search}` : ''}`, undefined, options);
  }

  post<T = Record<string, unknown>>(path: string, form: Record<string, FormValue> = {}, options: RequestOptions = {}) {
    return this.request<T>('POST', path, form, options);
  }

  patch<T = Record<string, unknown>>(path: string, form: Record<string, FormValue> = {}, options: RequestOptions = {}) {
    return this.request<T>('PATCH', path, form, options);
  }

  delete<T = Record<string, unknown>>(path: string, form: Record<string, FormValue> = {}, options: RequestOptions = {}) {
    return this.request<T>('DELETE', path, form, options);
  }

  /** A request with a raw body, for malformed-input tests. */
  async raw<T = Record<string, unknown>>(
    method: string,
    path: string,
    body: string | undefined,
    options: RequestOptions & { contentType?: string } = {},
  ) {
    return this.send<T>(method, path, body, options.contentType ?? 'application/x-www-form-urlencoded', options);
  }

  async request<T>(method: string, path: string, form: Record<string, FormValue> | undefined, options: RequestOptions) {
    if (form === undefined) return this.send<T>(method, path, undefined, undefined, options);
    if (options.multipart) {
      const data = new FormData();
      for (const [k, v] of Object.entries(form)) data.append(k, encodeValue(v));
      return this.send<T>(method, path, data, undefined, options);
    }
    const body = new URLSearchParams(Object.entries(form).map(([k, v]) => [k, encodeValue(v)] as [string, string])).toString();
    return this.send<T>(method, path, body, 'application/x-www-form-urlencoded', options);
  }

  private async send<T>(
    method: string,
    path: string,
    body: string | FormData | undefined,
    contentType: string | undefined,
    options: RequestOptions,
  ): Promise<ApiResponse<T>> {
    // node:http rather than fetch: fetch will not send a Host header of our choosing.
    const headers: Record<string, string> = { Host: this.hostFor(options.subdomain), ...options.headers };
    let payload: Buffer | undefined;
    if (body instanceof FormData) {
      const encoded = new Request('http://multipart.invalid', { method: 'POST', body });
      payload = Buffer.from(await encoded.arrayBuffer());
      headers['Content-Type'] = encoded.headers.get('content-type') ?? '';
    } else if (body !== undefined) {
      payload = Buffer.from(body);
      if (contentType) headers['Content-Type'] = contentType;
    }
    if (payload) headers['Content-Length'] = String(payload.length);
    if (options.auth) {
      headers.Authorization =
        typeof options.auth === 'string'
          ? options.auth
          : `Basic ${Buffer.from(`${options.auth.email}:${options.auth.apiKey}`).toString('base64')}`;
    }
    // `/json/...` is the web app's (session) twin of /api/v1; `/` and `/assets/` its page and files.
    const outsideApi = path === '/' || ['/health', '/metrics', '/accounts/', '/join/', '/json/', '/assets/', '/static/'].some((prefix) => path.startsWith(prefix));
    const url = new URL(outsideApi ? path : `/api/v1${path}`, this.baseUrl);
    const { status, headers: responseHeaders, text } = await new Promise<{ status: number; headers: Headers; text: string }>(
      (resolve, reject) => {
        const req = http.request(url, { method, headers, agent: NO_KEEP_ALIVE }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const h = new Headers();
            // Each Set-Cookie kept apart (Headers.getSetCookie()); other repeated headers read joined.
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) for (const one of Array.isArray(v) ? v : [v]) h.append(k, one);
            resolve({ status: res.statusCode ?? 0, headers: h, text: Buffer.concat(chunks).toString('utf8') });
          });
        });
        req.on('error', reject);
        req.end(payload);
      },
    );
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the tests assert on it as text
    }
    return { status, headers: responseHeaders, body: parsed as T };
  }
}

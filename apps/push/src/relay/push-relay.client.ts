import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { ZULIP_VERSION, ZulipError } from '@teamchat/zulip';

/** The relay could not be reached, or did not answer in time (Zulip's PushNotificationBouncerRetryLaterError). */
export class RelayUnreachable extends Error {}
/** The relay answered 5xx. */
export class RelayServerError extends Error {}
/**
 * The relay answered 4xx: `code` is its Zulip error code when it sent one. Some name this
 * server's configuration (see `isConfigurationRefusal`), the others the request itself.
 */
export class RelayRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    msg: string,
  ) {
    super(msg);
  }
}

/**
 * The relay codes that mean the server itself is refused (bad credentials, no plan that allows
 * push, an organization the relay does not know): an administrator must act.
 */
const CONFIGURATION_CODES = new Set(['INVALID_ZULIP_SERVER', 'PUSH_NOTIFICATIONS_DISALLOWED', 'MISSING_REMOTE_REALM', 'INVALID_ZULIP_SERVER_KEY', 'UNAUTHORIZED']);

export function isConfigurationRefusal(error: RelayRefused): boolean {
  return error.status === 401 || error.status === 403 || (error.code !== undefined && CONFIGURATION_CODES.has(error.code));
}

export const PUSH_NOT_CONFIGURED_TEXT = 'Server is not configured to use push notification service.';

/**
 * The push relay (Zulip's push notification bouncer) over HTTP: `POST {PUSH_RELAY_URL}/api/v1/remotes/push/…`
 * with this server's credentials as HTTP Basic auth and a `ZulipServer/<version>` User-Agent,
 * every request bounded by PUSH_RELAY_TIMEOUT_MS.
 */
@Injectable()
export class PushRelayClient {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get configured(): boolean {
    return this.config.PUSH_RELAY_URL !== '';
  }

  /** PUSH_SERVICE_NOT_CONFIGURED when no relay is configured. */
  requireConfigured(): void {
    if (!this.configured) throw new ZulipError('PUSH_SERVICE_NOT_CONFIGURED', PUSH_NOT_CONFIGURED_TEXT);
  }

  /** Registers a device (form-encoded, as Zulip sends it); the relay answers its `device_id`. */
  async registerDevice(body: { realm_id: number; push_account_id: string; encrypted_push_registration: string; bouncer_public_key: string }): Promise<{ device_id: number }> {
    const form = new URLSearchParams(Object.entries(body).map(([key, value]): [string, string] => [key, String(value)]));
    const answer = await this.post('push/e2ee/register', form.toString(), 'application/x-www-form-urlencoded');
    const deviceId = answer.device_id;
    if (typeof deviceId !== 'number' || !Number.isSafeInteger(deviceId)) throw new RelayServerError('the relay answered no device_id');
    return { device_id: deviceId };
  }

  /** Hands encrypted notifications to the relay (JSON, as Zulip sends them). */
  async notify(body: { realm_id: number; push_requests: { device_id: number; payload: { push_account_id: string; encrypted_data: string } }[] }): Promise<Record<string, unknown>> {
    return this.post('push/e2ee/notify', JSON.stringify(body), 'application/json');
  }

  /**
   * The older token registrations, form-encoded as Zulip's add/remove_push_device_token send
   * them (`realm_id` for Zulip's `realm_uuid`; `token_kind` 1 APNs, 2 FCM).
   */
  registerToken(body: LegacyTokenBody & { ios_app_id?: string }): Promise<Record<string, unknown>> {
    return this.post('push/register', formOf(body), 'application/x-www-form-urlencoded');
  }

  unregisterToken(body: LegacyTokenBody): Promise<Record<string, unknown>> {
    return this.post('push/unregister', formOf(body), 'application/x-www-form-urlencoded');
  }

  /** A test notification to one token-registered device (JSON, as Zulip sends it). */
  testNotification(body: LegacyTokenBody & { base_payload: Record<string, unknown> }): Promise<Record<string, unknown>> {
    return this.post('push/test_notification', JSON.stringify(body), 'application/json');
  }

  /** A notification to every token-registered device of a user (Zulip's `push/notify`: the relay holds the tokens). */
  notifyTokens(body: { realm_id: number; user_id: number; apns_payload: Record<string, unknown>; gcm_payload: Record<string, unknown>; gcm_options: Record<string, unknown> }): Promise<Record<string, unknown>> {
    return this.post('push/notify', JSON.stringify(body), 'application/json');
  }

  private async post(endpoint: string, body: string, contentType: string): Promise<Record<string, unknown>> {
    const url = new URL(`api/v1/remotes/${endpoint}`, this.config.PUSH_RELAY_URL.endsWith('/') ? this.config.PUSH_RELAY_URL : `${this.config.PUSH_RELAY_URL}/`);
    const credentials = Buffer.from(`${this.config.PUSH_RELAY_ORG_ID}:${this.config.PUSH_RELAY_ORG_KEY}`).toString('base64');
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Basic ${credentials}`, 'content-type': contentType, 'user-agent': `ZulipServer/${ZULIP_VERSION}` },
        body,
        signal: AbortSignal.timeout(this.config.PUSH_RELAY_TIMEOUT_MS),
      });
      text = await response.text();
    } catch (error) {
      throw new RelayUnreachable(error instanceof Error ? error.message : String(error));
    }
    if (response.status >= 500) throw new RelayServerError(`the relay answered ${response.status}`);
    const parsed = parseObject(text);
    if (response.status >= 400) {
      const code = typeof parsed?.code === 'string' ? parsed.code : undefined;
      const msg = typeof parsed?.msg === 'string' ? parsed.msg : `the relay answered ${response.status}`;
      throw new RelayRefused(response.status, code, msg);
    }
    if (response.status !== 200 || !parsed) throw new RelayServerError(`the relay answered ${response.status} with no JSON object`);
    return parsed;
  }
}

/** What every older token request names: the organization, the user, the token and its kind. */
export interface LegacyTokenBody {
  realm_id: number;
  user_id: number;
  token: string;
  token_kind: number;
}

function formOf(body: object): string {
  return new URLSearchParams(
    Object.entries(body)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]): [string, string] => [key, String(value)]),
  ).toString();
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Zulip error model. Services throw ZulipError; the gateway writes it once as
 * `{ result: "error", msg, code, ...extra }` with `status`.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  REQUEST_VARIABLE_MISSING: 400,
  REQUEST_VARIABLE_INVALID: 400,
  REQUEST_CONFUSING_VAR: 400,
  INVALID_JSON: 400,
  STREAM_DOES_NOT_EXIST: 400,
  STREAM_WILDCARD_MENTION_NOT_ALLOWED: 400,
  TOPIC_WILDCARD_MENTION_NOT_ALLOWED: 400,
  UNAUTHORIZED_PRINCIPAL: 400,
  BAD_EVENT_QUEUE_ID: 400,
  EXPECTATION_MISMATCH: 400,
  REACTION_ALREADY_EXISTS: 400,
  REACTION_DOES_NOT_EXIST: 400,
  MOVE_MESSAGES_TIME_LIMIT_EXCEEDED: 400,
  CHANNEL_ALREADY_EXISTS: 409,
  CANNOT_DEACTIVATE_GROUP_IN_USE: 400,
  CANNOT_DEACTIVATE_LAST_USER: 400,
  NO_ACTIVE_PUSH_DEVICE: 400,
  INVALID_PUSH_DEVICE_TOKEN: 400,
  INVALID_REMOTE_PUSH_DEVICE_TOKEN: 400,
  PUSH_SERVICE_NOT_CONFIGURED: 400,
  REALM_UPLOAD_QUOTA: 400,
  BAD_IMAGE: 400,
  INVITATION_FAILED: 400,
  UNAUTHORIZED: 401,
  AUTHENTICATION_FAILED: 401,
  USER_DEACTIVATED: 401,
  REALM_DEACTIVATED: 401,
  PASSWORD_AUTH_DISABLED: 401,
  PASSWORD_RESET_REQUIRED: 401,
  ADMIN_ACTION_REQUIRED: 403,
  NOT_FOUND: 404,
  NONEXISTENT_SUBDOMAIN: 404,
  RATE_LIMIT_HIT: 429,
  INTERNAL_SERVER_ERROR: 500,
  FAILED_TO_CONNECT_BOUNCER: 502,
  INTERNAL_SERVER_ERROR_ON_BOUNCER: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The serialisable form of an error, as it travels over NATS. */
export interface ErrorBody {
  code: ErrorCode;
  msg: string;
  status: number;
  extra?: Record<string, unknown>;
}

export class ZulipError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    msg: string,
    readonly extra: Record<string, unknown> = {},
    status?: number,
  ) {
    super(msg);
    this.name = 'ZulipError';
    this.status = status ?? ERROR_STATUS[code];
  }

  toBody(): ErrorBody {
    return { code: this.code, msg: this.message, status: this.status, extra: this.extra };
  }

  static fromBody(body: ErrorBody): ZulipError {
    return new ZulipError(body.code, body.msg, body.extra ?? {}, body.status);
  }
}

/** The ordinary invalid-input error (Zulip's JsonableError). */
export const badRequest = (msg: string, extra?: Record<string, unknown>): ZulipError =>
  new ZulipError('BAD_REQUEST', msg, extra);

/** A resource the caller may not see: Zulip answers 404 with code BAD_REQUEST. */
export const resourceNotFound = (msg: string): ZulipError =>
  new ZulipError('BAD_REQUEST', msg, {}, 404);

export const mustBeAdmin = (): ZulipError =>
  new ZulipError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');

export const mustBeOwner = (): ZulipError =>
  new ZulipError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');

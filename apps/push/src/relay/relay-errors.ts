import { ZulipError, badRequest } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { RelayRefused, RelayServerError, RelayUnreachable, isConfigurationRefusal } from './push-relay.client';

/** The texts of Zulip's errors about its bouncer (OpenAPI e2ee-test-notify, zerver/lib/remote_server.py). */
export const RELAY_TEXTS = {
  ADMIN_ACTION_REQUIRED: 'Push notification configuration issue on server, contact the server administrator or retry later.',
  FAILED_TO_CONNECT_BOUNCER: 'Network error while connecting to Zulip push notification service.',
  INTERNAL_SERVER_ERROR_ON_BOUNCER: 'Internal server error on Zulip push notification service, retry later.',
  INVALID_REMOTE_PUSH_DEVICE_TOKEN: 'Device not recognized by the push bouncer',
} as const;

/**
 * A relay failure as the client sees it (Zulip's send_to_push_bouncer): unreachable or too slow
 * → FAILED_TO_CONNECT_BOUNCER, 5xx → INTERNAL_SERVER_ERROR_ON_BOUNCER, a refusal of this server
 * → ADMIN_ACTION_REQUIRED; with `passRequestErrors`, a refusal of the request itself is the
 * relay's own text (an unknown token: INVALID_REMOTE_PUSH_DEVICE_TOKEN), as Zulip passes its
 * bouncer's JsonableError on. Anything else is returned unchanged.
 */
export function relayFailureAsZulipError(error: unknown, logger: Logger, requestId: string, passRequestErrors = false): unknown {
  if (error instanceof RelayUnreachable) {
    logger.warn({ err: error, requestId }, 'push relay unreachable');
    return new ZulipError('FAILED_TO_CONNECT_BOUNCER', RELAY_TEXTS.FAILED_TO_CONNECT_BOUNCER);
  }
  if (error instanceof RelayServerError) {
    logger.warn({ err: error, requestId }, 'push relay failed');
    return new ZulipError('INTERNAL_SERVER_ERROR_ON_BOUNCER', RELAY_TEXTS.INTERNAL_SERVER_ERROR_ON_BOUNCER);
  }
  if (error instanceof RelayRefused) {
    if (passRequestErrors && !isConfigurationRefusal(error)) {
      if (error.code === 'INVALID_REMOTE_PUSH_DEVICE_TOKEN') return new ZulipError('INVALID_REMOTE_PUSH_DEVICE_TOKEN', RELAY_TEXTS.INVALID_REMOTE_PUSH_DEVICE_TOKEN);
      return badRequest(error.message);
    }
    logger.error({ err: error, code: error.code, status: error.status, requestId }, 'push relay refused this server');
    return new ZulipError('ADMIN_ACTION_REQUIRED', RELAY_TEXTS.ADMIN_ACTION_REQUIRED);
  }
  return error;
}

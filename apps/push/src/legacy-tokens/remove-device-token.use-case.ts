import { Inject, Injectable } from '@nestjs/common';
import type { AuthUser, RealmRef } from '@teamchat/contracts';
import { LOGGER } from '@teamchat/platform';
import { badRequest } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { PushDeviceTokensRepository } from '../data/push-device-tokens.repository';
import { PushRelayClient } from '../relay/push-relay.client';
import { relayFailureAsZulipError } from '../relay/relay-errors';
import { NOT_FOR_BOTS, validToken, type TokenKind } from './device-token';

export interface RemoveDeviceTokenInput {
  realm: RealmRef;
  user: AuthUser;
  requestId: string;
  kind: TokenKind;
  token: string;
}

/**
 * DELETE /users/me/apns_device_token and /users/me/android_gcm_reg_id (Zulip's
 * remove_push_device_token): the caller's token is deleted here and unregistered at the relay.
 * A token this server does not know is "Token does not exist" without a relay; with one, the
 * relay decides (it may hold a token registered before this server kept them).
 */
@Injectable()
export class RemoveDeviceToken {
  constructor(
    private readonly tokens: PushDeviceTokensRepository,
    private readonly relay: PushRelayClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ realm, user, requestId, kind, token }: RemoveDeviceTokenInput): Promise<Record<string, never>> {
    if (user.isBot) throw badRequest(NOT_FOR_BOTS);
    const valid = validToken(token, kind);
    const removed = await this.tokens.remove(user.id, kind, valid);
    if (!this.relay.configured) {
      if (!removed) throw badRequest('Token does not exist');
      return {};
    }
    try {
      await this.relay.unregisterToken({ realm_id: realm.id, user_id: user.id, token: valid, token_kind: kind });
    } catch (error) {
      throw relayFailureAsZulipError(error, this.logger, requestId, true);
    }
    return {};
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { AuthUser, RealmRef } from '@teamchat/contracts';
import { LOGGER } from '@teamchat/platform';
import { badRequest } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { PushDeviceTokensRepository } from '../data/push-device-tokens.repository';
import { PushRelayClient } from '../relay/push-relay.client';
import { relayFailureAsZulipError } from '../relay/relay-errors';
import { NOT_FOR_BOTS, validToken, type TokenKind } from './device-token';

export interface AddDeviceTokenInput {
  realm: RealmRef;
  user: AuthUser;
  requestId: string;
  kind: TokenKind;
  token: string;
  iosAppId?: string;
}

/**
 * POST /users/me/apns_device_token and /users/me/android_gcm_reg_id (Zulip's
 * add_push_device_token): the token is stored here whatever happens (it tells which users have
 * a phone), then, with a relay configured, registered with it as Zulip registers it with its
 * bouncer; the relay's refusal or absence is the answer's error.
 */
@Injectable()
export class AddDeviceToken {
  constructor(
    private readonly tokens: PushDeviceTokensRepository,
    private readonly relay: PushRelayClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ realm, user, requestId, kind, token, iosAppId }: AddDeviceTokenInput): Promise<Record<string, never>> {
    if (user.isBot) throw badRequest(NOT_FOR_BOTS);
    const valid = validToken(token, kind);
    await this.tokens.save({ realmId: realm.id, userId: user.id, kind, token: valid, iosAppId: iosAppId ?? null });
    if (!this.relay.configured) return {};
    try {
      await this.relay.registerToken({ realm_id: realm.id, user_id: user.id, token: valid, token_kind: kind, ...(iosAppId !== undefined ? { ios_app_id: iosAppId } : {}) });
    } catch (error) {
      throw relayFailureAsZulipError(error, this.logger, requestId, true);
    }
    return {};
  }
}

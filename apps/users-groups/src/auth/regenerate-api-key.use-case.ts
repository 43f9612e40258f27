import { Injectable } from '@nestjs/common';
import type { UserCommand } from '@teamchat/contracts';
import { EventOutbox, type OutboxEvent } from '@teamchat/db';
import { CredentialsRepository } from '../data/credentials.repository';
import { accessChanged } from '../users/user-admin-events';
import { generateApiKey } from './api-keys';

/**
 * POST /users/me/api_key/regenerate (zerver/views/user_settings.py regenerate_api_key): a new
 * key, answered to the caller. The old one is refused from the moment this answers: the
 * `user_access_changed` event makes every gateway stop trusting the credentials it cached for
 * the user, and the gateways hear it before this reply (see CredentialCache): the key and the
 * event commit together, and the event is published after the commit and before the answer.
 */
@Injectable()
export class RegenerateApiKey {
  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, requestId }: UserCommand<Record<string, never>>): Promise<{ api_key: string }> {
    return { api_key: await this.rotate(realm.id, user.id, requestId) };
  }

  /**
   * The one key rotation, a user's own or a bot's (POST /bots/{bot_id}/api_key/regenerate): the
   * new key, the old one refused from now. `announce` builds the events to write after the
   * gateways' (a bot's `realm_bot` update with the new key).
   */
  async rotate(realmId: number, userId: number, requestId: string, announce: (key: string) => OutboxEvent[] = () => []): Promise<string> {
    const key = generateApiKey();
    return this.outbox.runCold(async (tx) => {
      await this.credentials.replaceApiKey(userId, key, tx);
      return { value: key, events: [accessChanged(realmId, userId, false), ...announce(key)] };
    }, requestId);
  }
}

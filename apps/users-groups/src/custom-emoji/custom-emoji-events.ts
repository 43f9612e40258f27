import { Injectable } from '@nestjs/common';
import { UsersGroups } from '@teamchat/contracts';
import { EventBus } from '@teamchat/platform';
import { CustomEmojiRepository } from '../data/custom-emoji.repository';
import { UsersRepository } from '../data/users.repository';
import { customEmojiMap } from './custom-emoji-rules';

/**
 * Zulip's notify_realm_emoji: after any change, the organization's whole emoji map, to every
 * active user. Messaging's rendering cache hears the same event and forgets the organization's emoji.
 */
@Injectable()
export class CustomEmojiEvents {
  constructor(
    private readonly emoji: CustomEmojiRepository,
    private readonly users: UsersRepository,
    private readonly events: EventBus,
  ) {}

  async announce(realmId: number, requestId: string): Promise<void> {
    const [rows, recipients] = await Promise.all([this.emoji.ofRealm(realmId), this.users.activeIdsOfRealm(realmId)]);
    const event = { type: 'realm_emoji', op: 'update', realm_emoji: customEmojiMap(realmId, rows) };
    await this.events.publishAll([{ def: UsersGroups.CustomEmojiEvents.realmEmojiChanged, payload: { realmId, users: recipients, event } }], requestId);
  }
}

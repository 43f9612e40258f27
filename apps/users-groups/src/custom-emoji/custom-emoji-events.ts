import { Injectable } from '@nestjs/common';
import { UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { CustomEmojiRepository } from '../data/custom-emoji.repository';
import type { Transaction } from '../data/transactions';
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
    private readonly outbox: EventOutbox,
  ) {}

  /**
   * `change` in a transaction with its `realm_emoji` event (the whole map as `change` left it,
   * read through the transaction), committed together; every active user hears it (read before).
   */
  async change<T>(realmId: number, change: (tx: Transaction) => Promise<T>, requestId: string): Promise<T> {
    const recipients = await this.users.activeIdsOfRealm(realmId);
    return this.outbox.runCold(async (tx) => {
      const value = await change(tx);
      const event = { type: 'realm_emoji', op: 'update', realm_emoji: customEmojiMap(realmId, await this.emoji.ofRealm(realmId, tx)) };
      return { value, events: [{ def: UsersGroups.CustomEmojiEvents.realmEmojiChanged, payload: { realmId, users: recipients, event } }] };
    }, requestId);
  }
}

import { Injectable } from '@nestjs/common';
import { EventOutbox } from '@teamchat/db';
import { LinkifiersRepository } from '../data/linkifiers.repository';
import type { ColdTx } from '../data/transactions';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { linkifiersEvent, playgroundsEvent } from './linkifier-rules';

/**
 * A change of the organization's linkifiers or playgrounds, and the whole list after it told to
 * every active user (notify_linkifiers, notify_realm_playgrounds): `work` writes in a transaction
 * that also reads the list and writes the event (outbox), published once it commits.
 */
@Injectable()
export class AnnounceOrganizationLists {
  constructor(
    private readonly repository: LinkifiersRepository,
    private readonly users: UsersReadonlyRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async linkifiers<T>(realmId: number, requestId: string, work: (tx: ColdTx) => Promise<T>): Promise<T> {
    const audience = (await this.users.activeUsers(realmId)).map((user) => user.id);
    return this.outbox.runCold(async (tx) => {
      const value = await work(tx);
      return { value, events: [linkifiersEvent(realmId, audience, await this.repository.ofRealm(realmId, tx))] };
    }, requestId);
  }

  async playgrounds<T>(realmId: number, requestId: string, work: (tx: ColdTx) => Promise<T>): Promise<T> {
    const audience = (await this.users.activeUsers(realmId)).map((user) => user.id);
    return this.outbox.runCold(async (tx) => {
      const value = await work(tx);
      return { value, events: [playgroundsEvent(realmId, audience, await this.repository.playgroundsOf(realmId, tx))] };
    }, requestId);
  }
}

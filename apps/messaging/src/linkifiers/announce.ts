import { Injectable } from '@nestjs/common';
import { EventBus } from '@teamchat/platform';
import { LinkifiersRepository } from '../data/linkifiers.repository';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { linkifiersEvent, playgroundsEvent } from './linkifier-rules';

/** Tells every active user of the organization its whole list after a change (notify_linkifiers, notify_realm_playgrounds). */
@Injectable()
export class AnnounceOrganizationLists {
  constructor(
    private readonly repository: LinkifiersRepository,
    private readonly users: UsersReadonlyRepository,
    private readonly events: EventBus,
  ) {}

  async linkifiers(realmId: number, requestId?: string): Promise<void> {
    const [rows, audience] = await Promise.all([this.repository.ofRealm(realmId), this.users.activeUsers(realmId)]);
    await this.events.publishAll([linkifiersEvent(realmId, audience.map((user) => user.id), rows)], requestId);
  }

  async playgrounds(realmId: number, requestId?: string): Promise<void> {
    const [rows, audience] = await Promise.all([this.repository.playgroundsOf(realmId), this.users.activeUsers(realmId)]);
    await this.events.publishAll([playgroundsEvent(realmId, audience.map((user) => user.id), rows)], requestId);
  }
}

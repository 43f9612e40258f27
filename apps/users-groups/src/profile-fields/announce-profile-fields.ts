import { Injectable } from '@nestjs/common';
import { EventBus } from '@teamchat/platform';
import { ProfileFieldsRepository } from '../data/profile-fields.repository';
import { UsersRepository } from '../data/users.repository';
import { profileFieldsEvent } from './profile-field-rules';

export { isUniqueViolation } from '../data/unique-violation';

/** notify_realm_custom_profile_fields: every active user gets the organization's whole list. */
@Injectable()
export class AnnounceProfileFields {
  constructor(
    private readonly fields: ProfileFieldsRepository,
    private readonly users: UsersRepository,
    private readonly events: EventBus,
  ) {}

  async all(realmId: number, requestId: string, before: { def: never; payload: unknown }[] = []): Promise<void> {
    const [rows, audience] = await Promise.all([this.fields.ofRealm(realmId), this.users.activeIdsOfRealm(realmId)]);
    await this.events.publishAll([...before, profileFieldsEvent(realmId, audience, rows)], requestId);
  }
}

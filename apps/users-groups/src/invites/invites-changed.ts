import { Injectable } from '@nestjs/common';
import { UsersGroups } from '@teamchat/contracts';
import { EventBus } from '@teamchat/platform';
import { Role } from '@teamchat/zulip';
import { UsersRepository } from '../data/users.repository';

/**
 * Zulip's notify_invites_changed: `invites_changed` to the organization's administrators (bots
 * included, as get_admin_users_and_bots) and the changed invitation's creator.
 */
@Injectable()
export class InvitesChanged {
  constructor(
    private readonly users: UsersRepository,
    private readonly events: EventBus,
  ) {}

  async publish(realmId: number, referrerId: number | null, requestId: string): Promise<void> {
    const active = await this.users.activeOfRealm(realmId);
    const recipients = active.filter((user) => user.role <= Role.ADMINISTRATOR).map((user) => user.id);
    if (referrerId !== null && !recipients.includes(referrerId) && active.some((user) => user.id === referrerId)) recipients.push(referrerId);
    await this.events.publishAll(
      [{ def: UsersGroups.InviteEvents.invitesChanged, payload: { realmId, users: recipients, event: { type: 'invites_changed' } } }],
      requestId,
    );
  }
}

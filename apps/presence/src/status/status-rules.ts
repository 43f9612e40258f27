import { Injectable } from '@nestjs/common';
import { PresenceEvents, type AuthUser, type ClientEvent, type EventDef, type RealmRef } from '@teamchat/contracts';
import { CommandClient, hidesAnyFromGuest } from '@teamchat/platform';
import { badRequest, isAdminRole } from '@teamchat/zulip';
import type { Person } from '../core/person';
import { CustomEmojiReadonlyRepository } from '../data/custom-emoji.readonly.repository';
import { PeopleReadonlyRepository } from '../data/people.readonly.repository';
import { emojiCatalogue, type EmojiCatalogue } from '@teamchat/zulip';
import { checkStatusChange, statusEvent, type StatusChange, type StatusParams } from './status-change';

/**
 * The rules the status endpoints share: whose status a caller may see or set (Zulip's
 * access_user_by_id), what a request changes, and who hears of it.
 */
@Injectable()
export class StatusRules {
  /** Built when the service starts, not on its first status request. */
  private readonly catalogue: EmojiCatalogue = emojiCatalogue();

  constructor(
    private readonly people: PeopleReadonlyRepository,
    private readonly customEmoji: CustomEmojiReadonlyRepository,
    private readonly commands: CommandClient,
  ) {}

  /**
   * The user whose status is asked for: an active human of the organization ("No such user"
   * for anyone else, bots included; "User is deactivated"). Setting another's status takes an
   * administrator, and a guest may not read the status of someone can_access_all_users_group
   * hides from them ("Insufficient permission" both).
   */
  async target(realm: RealmRef, caller: AuthUser, userId: number, { forAdmin, requestId }: { forAdmin: boolean; requestId: string }): Promise<Person> {
    const target = await this.people.byId(realm, userId);
    if (!target || target.isBot) throw badRequest('No such user');
    if (!target.isActive) throw badRequest('User is deactivated');
    if (forAdmin ? !isAdminRole(caller.role) : await hidesAnyFromGuest(this.commands, realm, caller, [target.id], requestId)) {
      throw badRequest('Insufficient permission');
    }
    return target;
  }

  check(realmId: number, params: StatusParams): Promise<StatusChange> {
    return checkStatusChange(params, this.catalogue, this.customEmoji.of(realmId));
  }

  /** The `user_status` event of a change, for everyone in the organization who can see the user. */
  async changedEvent(realmId: number, userId: number, change: StatusChange): Promise<{ def: EventDef<ClientEvent>; payload: ClientEvent }> {
    const users = await this.people.activeIds(realmId);
    return { def: PresenceEvents.userStatusChanged, payload: { realmId, users, event: statusEvent(userId, change) } };
  }
}

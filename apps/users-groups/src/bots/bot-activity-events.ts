import { Injectable } from '@nestjs/common';
import { Role } from '@teamchat/zulip';
import { BotsRepository } from '../data/bots.repository';
import type { Transaction } from '../data/transactions';
import { UsersRepository } from '../data/users.repository';
import { realmUserUpdate, type PublishedEvent } from '../users/user-admin-events';
import { BotRecords, realmBotAdd, realmBotEvent } from './bot-records';
import { BotAccess } from './bot-rules';

/**
 * The `realm_bot` events of a bot's life that other use cases cause: deactivation and
 * reactivation (Zulip's do_deactivate_user, do_reactivate_user) and a new owner
 * (send_bot_owner_update_events), each to the bot's administrators as they are after the change.
 */
@Injectable()
export class BotActivityEvents {
  constructor(
    private readonly bots: BotsRepository,
    private readonly users: UsersRepository,
    private readonly access: BotAccess,
    private readonly records: BotRecords,
  ) {}

  /**
   * Before deactivating a user (in the transaction, with the events): who administers each of
   * their active bots, and them when a bot. Deactivating a bot's owner changes neither its
   * owner nor its other administrators, so what is read before is what holds after.
   */
  async administratorsBeforeDeactivating(realmId: number, userId: number): Promise<Map<number, number[]>> {
    const bots = [...(await this.bots.withDetails(realmId, { ids: [userId] })), ...(await this.bots.withDetails(realmId, { ownerId: userId, activeOnly: true }))];
    const entries: [number, number[]][] = [];
    for (const bot of bots) entries.push([bot.id, await this.access.administrators(realmId, bot)]);
    return new Map(entries);
  }

  /** A bot's `realm_bot` update `{is_active: false}` to the administrators read before (see administratorsBeforeDeactivating). */
  deactivatedFor(realmId: number, botId: number, administrators: number[]): PublishedEvent {
    return realmBotEvent(realmId, administrators, 'update', { user_id: botId, is_active: false });
  }

  /** A bot's `realm_bot` update `{is_active: true}`, read through the reactivation's transaction. */
  async reactivated(realmId: number, botId: number, tx: Transaction): Promise<PublishedEvent> {
    const [details] = await this.bots.withDetails(realmId, { ids: [botId] }, tx);
    return realmBotEvent(realmId, await this.access.administrators(realmId, details, tx), 'update', { user_id: botId, is_active: true });
  }

  /**
   * A new owner: the previous one, unless an administrator (who administers every bot), gets
   * `delete`; the new one, unless an administrator, gets `add` with the whole record; the other
   * administrators `update {owner_id}`; everyone `realm_user` update `{bot_owner_id}`. Read
   * through the transaction that changed the owner.
   */
  async ownerChanged(realmId: number, botId: number, previousOwnerId: number | null, ownerId: number, tx: Transaction): Promise<PublishedEvent[]> {
    const [details] = await this.bots.withDetails(realmId, { ids: [botId] }, tx);
    let updateUsers = new Set(await this.access.administrators(realmId, details, tx));
    const people = new Map((await this.users.ofRealmByIds(realmId, [ownerId, ...(previousOwnerId !== null ? [previousOwnerId] : [])], tx)).map((user) => [user.id, user]));
    const isAdmin = (id: number) => (people.get(id)?.role ?? Role.MEMBER) <= Role.ADMINISTRATOR;
    const events: PublishedEvent[] = [];
    if (previousOwnerId !== null && !isAdmin(previousOwnerId)) {
      events.push(realmBotEvent(realmId, [previousOwnerId], 'delete', { user_id: botId }));
      updateUsers.delete(previousOwnerId);
    }
    if (!isAdmin(ownerId)) {
      events.push(realmBotAdd(realmId, [ownerId], await this.records.one(realmId, botId, tx)));
      updateUsers.delete(ownerId);
    }
    updateUsers = new Set([...updateUsers].sort((a, b) => a - b));
    if (updateUsers.size > 0) events.push(realmBotEvent(realmId, [...updateUsers], 'update', { user_id: botId, owner_id: ownerId }));
    events.push(realmUserUpdate(realmId, await this.users.activeIdsOfRealm(realmId, tx), botId, { bot_owner_id: ownerId }));
    return events;
  }
}

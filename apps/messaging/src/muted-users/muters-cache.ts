import { Injectable } from '@nestjs/common';
import { MessagingEvents } from '@teamchat/contracts';
import { CommandConnection } from '@teamchat/platform';
import { RealmCache } from '../core/realm-cache';
import { MutedUsersRepository } from '../data/muted-users.repository';

const NOBODY: ReadonlySet<number> = new Set();

/**
 * Who muted whom in each organization, for the send: a muted sender's message is written read
 * for whoever muted them (Zulip), decided before the insert so the stored flags and the event's
 * agree. Emptied by any `muted_users` event (see RealmCache).
 */
@Injectable()
export class MutersCache {
  private readonly cache: RealmCache<ReadonlyMap<number, ReadonlySet<number>>>;

  constructor(mutedUsers: MutedUsersRepository, connection: CommandConnection) {
    this.cache = new RealmCache(
      async (realmId) => {
        const muters = new Map<number, Set<number>>();
        for (const { userId, mutedUserId } of await mutedUsers.ofRealm(realmId)) {
          const set = muters.get(mutedUserId);
          if (set) set.add(userId);
          else muters.set(mutedUserId, new Set([userId]));
        }
        return muters;
      },
      connection,
      MessagingEvents.mutedUsersChanged.subject,
    );
  }

  /** The users of the organization who muted `userId`. */
  async of(realmId: number, userId: number): Promise<ReadonlySet<number>> {
    return (await this.cache.of(realmId)).get(userId) ?? NOBODY;
  }
}

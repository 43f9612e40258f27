import { Injectable } from '@nestjs/common';
import { PgService, isStoredId } from '@teamchat/db';
import { badRequest } from '@teamchat/zulip';
import { activeUsersByEmails, activeUsersByIds, activeUsersOfRealm, userOfRealm, type DirectoryUserRow } from './users.readonly.sql';

/** What messaging needs to know about a user. */
export type DirectoryUser = DirectoryUserRow;

const DUMMY_EMAIL = /^user(\d+)@/i;

/**
 * READ-ONLY view of users-groups' `users` table, for resolving recipients and principals on
 * the hot path. Messaging never writes users; anything else goes through users-groups.
 */
@Injectable()
export class UsersReadonlyRepository {
  constructor(private readonly pg: PgService) {}

  /** Active users of the organization by id; an unknown or foreign id fails with its message. */
  async byIds(realmId: number, ids: number[], invalid: (id: number) => string): Promise<DirectoryUser[]> {
    const unique = [...new Set(ids)];
    const inRange = unique.filter(isStoredId);
    const users = await this.pg.run(activeUsersByIds, realmId, inRange);
    const found = new Map(users.map((user) => [user.id, user]));
    const missing = unique.find((id) => !found.has(id));
    if (missing !== undefined) throw badRequest(invalid(missing));
    return unique.map((id) => found.get(id)!);
  }

  /**
   * Every active user of the organization, bots included, in id order: who may be told about
   * a channel (Zulip's active_user_ids, with roles to tell guests and administrators apart).
   */
  async activeUsers(realmId: number): Promise<DirectoryUser[]> {
    return this.pg.run(activeUsersOfRealm, realmId);
  }

  /**
   * Active users by email: the real address or Zulip's dummy `user<id>@…` form, case-insensitive.
   */
  async byEmails(realmId: number, emails: string[], invalid: (email: string) => string): Promise<DirectoryUser[]> {
    const unique = [...new Set(emails.map((e) => e.trim()))];
    // Postgres refuses a NUL in text; no address holds one.
    const impossible = unique.find((email) => email.includes('\0'));
    if (impossible !== undefined) throw badRequest(invalid(impossible));
    const dummyIds = unique.map((email) => {
      const dummy = DUMMY_EMAIL.exec(email);
      return dummy && isStoredId(Number(dummy[1])) ? Number(dummy[1]) : null;
    });
    const rows = await this.pg.run(activeUsersByEmails, realmId, unique, dummyIds);
    const found = new Map(rows.map(({ position, ...user }) => [position - 1, user]));
    const missing = unique.findIndex((_, i) => !found.has(i));
    if (missing >= 0) throw badRequest(invalid(unique[missing]));
    return unique.map((_, i) => found.get(i)!);
  }

  /** Any user of the organization (active or not, bot or not) by id; undefined for an unknown or foreign id. */
  async anyById(realmId: number, userId: number): Promise<DirectoryUser | undefined> {
    if (!isStoredId(userId)) return undefined;
    return (await this.pg.run(userOfRealm, realmId, userId))[0];
  }
}

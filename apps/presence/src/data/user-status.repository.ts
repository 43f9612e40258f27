import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, statement, type Prisma } from '@teamchat/db';
import type { StatusChange, StoredStatus } from '../status/status-change';

const SHOWN = { statusText: true, emojiName: true, emojiCode: true, reactionType: true } as const;

/** Every stored status of an organization (POST /register's `user_status`). */
const statusesOfRealm = statement<StoredStatus & { userId: number }, [realmId: number]>(
  'presence.statuses_of_realm',
  `SELECT user_id AS "userId", status_text AS "statusText", emoji_name AS "emojiName", emoji_code AS "emojiCode", reaction_type AS "reactionType"
     FROM user_status WHERE realm_id = $1 ORDER BY user_id`,
);

/** The `user_status` table: one row per user who ever set a status. */
@Injectable()
export class UserStatusRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  find(userId: number): Promise<StoredStatus | null> {
    return this.prisma.userStatus.findUnique({ where: { userId }, select: SHOWN });
  }

  /** Every stored status of the organization. */
  async ofRealm(realmId: number): Promise<(StoredStatus & { userId: number })[]> {
    return this.pg.run(statusesOfRealm, realmId);
  }

  /**
   * Writes what the change passed and leaves the rest (Zulip's update_user_status); the row is
   * created on first use, even when only `away` changed.
   */
  async save(realmId: number, userId: number, change: StatusChange, tx: Prisma.TransactionClient = this.prisma): Promise<void> {
    const data = {
      ...(change.statusText !== undefined ? { statusText: change.statusText } : {}),
      ...(change.emoji ? { emojiName: change.emoji.name, emojiCode: change.emoji.code, reactionType: change.emoji.type } : {}),
      updated: new Date(),
    };
    await tx.userStatus.upsert({ where: { userId }, create: { userId, realmId, ...data }, update: data });
  }
}

import { Injectable } from '@nestjs/common';
import { PgService, PrismaService } from '@teamchat/db';
import { memberProfiles, mentionableUsers, storedSender, storedSettings, type MemberProfileRow, type StoredSenderRow } from './member-profiles.readonly.sql';

import type { ColdTx } from './transactions';

export type { MemberProfileRow, StoredSenderRow } from './member-profiles.readonly.sql';

/**
 * READ-ONLY view of users-groups' `users` and `realms` tables as messages show people: their
 * profiles and stored settings. Messaging never writes these tables.
 */
@Injectable()
export class MemberProfilesReadonlyRepository {
  constructor(
    private readonly pg: PgService,
    private readonly prisma: PrismaService,
  ) {}

  /** People by id, with their stored settings and their organization's defaults. */
  async rows(userIds: number[]): Promise<MemberProfileRow[]> {
    return userIds.length === 0 ? [] : this.pg.run(memberProfiles, userIds);
  }

  /** A user's stored settings and their organization's defaults (both undefined for nobody). */
  async storedSettings(realmId: number, userId: number): Promise<{ settings: unknown; realmDefaults: unknown }> {
    const [user] = await this.pg.run(storedSettings, realmId, userId);
    return { settings: user?.settings, realmDefaults: user?.realmDefaults };
  }

  /** Which of these users are active accounts of the organization. */
  async activeIds(realmId: number, userIds: number[], tx: ColdTx = this.prisma): Promise<number[]> {
    const rows = await tx.user.findMany({
      where: { realmId, isActive: true, id: { in: userIds } },
      select: { id: true },
    });
    return rows.map((row) => row.id);
  }

  /** Active users of the organization by full name whatever its case, or by id. */
  mentionable(realmId: number, names: string[], ids: number[]): Promise<{ id: number; fullName: string }[]> {
    return this.pg.run(mentionableUsers, realmId, names, ids);
  }

  /** A stored sender and their organization, whatever their state. */
  async storedSender(realmId: number, userId: number): Promise<StoredSenderRow | null> {
    return (await this.pg.run(storedSender, realmId, userId))[0] ?? null;
  }
}

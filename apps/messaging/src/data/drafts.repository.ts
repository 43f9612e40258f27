import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, type DraftModel } from '@teamchat/db';
import type { DraftData } from '../drafts/draft-rules';
import { newestDrafts } from './drafts.sql';
import type { ColdTx } from './transactions';

/** `drafts`, which messaging owns: each user's synchronised drafts. */
@Injectable()
export class DraftsRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  /** Stores all of these drafts of the user, in order, in the caller's transaction. */
  async createAll(userId: number, drafts: DraftData[], tx: ColdTx): Promise<DraftModel[]> {
    const rows: DraftModel[] = [];
    for (const data of drafts) rows.push(await tx.draft.create({ data: { userId, ...data } }));
    return rows;
  }

  /** Whether the user has a draft with this id. */
  async exists(id: number, userId: number): Promise<boolean> {
    return (await this.prisma.draft.count({ where: { id, userId } })) > 0;
  }

  /** Replaces one of the user's drafts; false when they have none with this id. */
  async update(id: number, userId: number, data: DraftData, tx: ColdTx = this.prisma): Promise<boolean> {
    return (await tx.draft.updateMany({ where: { id, userId }, data })).count > 0;
  }

  /** Deletes one of the user's drafts; false when they have none with this id. */
  async delete(id: number, userId: number, tx: ColdTx = this.prisma): Promise<boolean> {
    return (await tx.draft.deleteMany({ where: { id, userId } })).count > 0;
  }

  /** Deletes all of a user's drafts; how many. */
  async deleteAllOf(userId: number): Promise<number> {
    return (await this.prisma.draft.deleteMany({ where: { userId } })).count;
  }

  /** A user's drafts, most recently edited first, at most `limit`. */
  newest(userId: number, limit: number): Promise<DraftModel[]> {
    return this.pg.run(newestDrafts, userId, limit);
  }
}

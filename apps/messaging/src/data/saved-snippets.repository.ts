import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, type SavedSnippetModel } from '@teamchat/db';
import { savedSnippetsOf } from './saved-snippets.sql';
import type { ColdTx } from './transactions';

/** `saved_snippets`, which messaging owns: each user's saved snippets (read through pg, as POST /register does; written through the ORM). */
@Injectable()
export class SavedSnippetsRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  /** The user's snippets, oldest first. */
  ofUser(userId: number): Promise<SavedSnippetModel[]> {
    return this.pg.run(savedSnippetsOf, userId);
  }

  create(userId: number, title: string, content: string, tx: ColdTx = this.prisma): Promise<SavedSnippetModel> {
    return tx.savedSnippet.create({ data: { userId, title, content } });
  }

  /** Changes one of the user's snippets; null when they have none with this id. */
  async update(id: number, userId: number, change: { title?: string; content?: string }, tx: ColdTx = this.prisma): Promise<SavedSnippetModel | null> {
    const { count } = await tx.savedSnippet.updateMany({ where: { id, userId }, data: change });
    return count > 0 ? tx.savedSnippet.findUnique({ where: { id } }) : null;
  }

  /** Deletes one of the user's snippets; false when they have none with this id. */
  async delete(id: number, userId: number, tx: ColdTx = this.prisma): Promise<boolean> {
    return (await tx.savedSnippet.deleteMany({ where: { id, userId } })).count > 0;
  }
}

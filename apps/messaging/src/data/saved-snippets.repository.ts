import { Injectable } from '@nestjs/common';
import { PrismaService, type SavedSnippetModel } from '@teamchat/db';

/** `saved_snippets`, which messaging owns: each user's saved snippets (a cold path: the ORM). */
@Injectable()
export class SavedSnippetsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The user's snippets, oldest first. */
  ofUser(userId: number): Promise<SavedSnippetModel[]> {
    return this.prisma.savedSnippet.findMany({ where: { userId }, orderBy: { id: 'asc' } });
  }

  create(userId: number, title: string, content: string): Promise<SavedSnippetModel> {
    return this.prisma.savedSnippet.create({ data: { userId, title, content } });
  }

  /** Changes one of the user's snippets; null when they have none with this id. */
  async update(id: number, userId: number, change: { title?: string; content?: string }): Promise<SavedSnippetModel | null> {
    const { count } = await this.prisma.savedSnippet.updateMany({ where: { id, userId }, data: change });
    return count > 0 ? this.prisma.savedSnippet.findUnique({ where: { id } }) : null;
  }

  /** Deletes one of the user's snippets; false when they have none with this id. */
  async delete(id: number, userId: number): Promise<boolean> {
    return (await this.prisma.savedSnippet.deleteMany({ where: { id, userId } })).count > 0;
  }
}

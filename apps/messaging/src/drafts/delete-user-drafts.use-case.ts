import { Injectable } from '@nestjs/common';
import { PrismaService } from '@teamchat/db';

/** Deletes all of a user's stored drafts (their synchronisation was turned off). */
@Injectable()
export class DeleteUserDrafts {
  constructor(private readonly prisma: PrismaService) {}

  async execute({ userId }: { realmId: number; userId: number }): Promise<{ deleted: number }> {
    const { count } = await this.prisma.draft.deleteMany({ where: { userId } });
    return { deleted: count };
  }
}

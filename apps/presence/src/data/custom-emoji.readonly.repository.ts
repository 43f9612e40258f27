import { Injectable } from '@nestjs/common';
import { PrismaService, isStoredId } from '@teamchat/db';
import type { CustomEmojiLookup } from '../status/status-change';

/**
 * READ-ONLY view of users-groups' `realm_emoji` table (an organization's custom emoji), for
 * checking status emoji. Presence never writes it.
 */
@Injectable()
export class CustomEmojiReadonlyRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The custom emoji of one organization. */
  of(realmId: number): CustomEmojiLookup {
    return {
      activeByName: (name) =>
        this.prisma.realmEmoji.findFirst({ where: { realmId, name, deactivated: false }, select: { id: true } }),
      byId: async (id) =>
        isStoredId(id)
          ? this.prisma.realmEmoji.findFirst({ where: { id, realmId }, select: { id: true, name: true, deactivated: true } })
          : null,
    };
  }
}

import { Injectable } from '@nestjs/common';
import { PrismaService } from '@teamchat/db';

/** A custom emoji as stored. */
export interface CustomEmojiRow {
  id: number;
  name: string;
  fileName: string;
  deactivated: boolean;
  authorId: number | null;
}

/** The `realm_emoji` table: the organization's custom emoji (no endpoint changes them yet). */
@Injectable()
export class CustomEmojiRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The organization's custom emoji, deactivated ones included, in id order. */
  ofRealm(realmId: number): Promise<CustomEmojiRow[]> {
    return this.prisma.realmEmoji.findMany({ where: { realmId }, orderBy: { id: 'asc' } });
  }
}

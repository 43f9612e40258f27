import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, statement } from '@teamchat/db';
import { onConnection, type Transaction } from './transactions';

/** A custom emoji as stored. */
export interface CustomEmojiRow {
  id: number;
  name: string;
  fileName: string;
  deactivated: boolean;
  isAnimated: boolean;
  authorId: number | null;
}

const COLUMNS = { id: true, name: true, fileName: true, deactivated: true, isAnimated: true, authorId: true } as const;

/** The organization's custom emoji, deactivated ones included, in id order. */
const emojiOfRealm = statement<CustomEmojiRow, [realmId: number]>(
  'users_groups.custom_emoji_of_realm',
  `SELECT id, name, file_name AS "fileName", deactivated, is_animated AS "isAnimated", author_id AS "authorId"
   FROM realm_emoji WHERE realm_id = $1 ORDER BY id`,
);

/**
 * The `realm_emoji` table: the organization's custom emoji. A deactivated emoji keeps its row.
 * The organization's list is read through pg (POST /register reads it every time); the rest is Prisma's.
 */
@Injectable()
export class CustomEmojiRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  /** The organization's custom emoji, deactivated ones included, in id order (inside a Prisma transaction, on its connection). */
  ofRealm(realmId: number, tx?: Transaction): Promise<CustomEmojiRow[]> {
    return (tx ? onConnection(tx) : this.pg).run(emojiOfRealm, realmId);
  }

  /** The organization's active emoji of that name (names compare exactly: they are stored lower-case). */
  activeByName(realmId: number, name: string): Promise<CustomEmojiRow | null> {
    return this.prisma.realmEmoji.findFirst({ where: { realmId, name, deactivated: false }, select: COLUMNS });
  }

  /**
   * Adds an active emoji; false when the organization already has an active one of that name
   * (the partial unique index decides, so two uploads racing for a name cannot both win).
   */
  async add(
    realmId: number,
    emoji: { name: string; authorId: number; fileName: string; isAnimated: boolean },
    tx: Transaction = this.prisma,
  ): Promise<boolean> {
    const inserted = await tx.$executeRaw`
      INSERT INTO realm_emoji (realm_id, name, author_id, file_name, is_animated)
      VALUES (${realmId}, ${emoji.name}, ${emoji.authorId}, ${emoji.fileName}, ${emoji.isAnimated})
      ON CONFLICT (realm_id, name) WHERE NOT deactivated DO NOTHING`;
    return inserted === 1;
  }

  /** Deactivates the active emoji `id`; false when it was no longer active. */
  async deactivate(id: number, tx: Transaction = this.prisma): Promise<boolean> {
    const { count } = await tx.realmEmoji.updateMany({ where: { id, deactivated: false }, data: { deactivated: true } });
    return count === 1;
  }
}

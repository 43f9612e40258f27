import { Injectable, type OnModuleInit } from '@nestjs/common';
import { UsersGroups } from '@teamchat/contracts';
import { CommandConnection } from '@teamchat/platform';
import { CustomEmojiReadonlyRepository } from '../data/custom-emoji.readonly.repository';

/** Beyond this many organizations the oldest entry goes first. */
const MAX_ORGANIZATIONS = 1000;
/** What no event tells (a database changed by hand) is seen after this long. */
const LIFETIME_MS = 10 * 60 * 1000;

/** A custom emoji as rendering needs it: where its image is served. */
export type CustomEmojiImages = ReadonlyMap<string, string>;

/**
 * Each organization's active custom emoji by name (their `/user_avatars/…` URLs), for rendering
 * `:name:`: read once per organization and kept, so a message costs no query. users-groups'
 * `realm_emoji` update event (an emoji added or deactivated) drops that organization's entry on
 * every replica; the event arrives on the commands' connection, so a message sent after the
 * change was answered is rendered with it.
 */
@Injectable()
export class CustomEmojiCatalogue implements OnModuleInit {
  private readonly entries = new Map<number, { emoji: CustomEmojiImages; expires: number }>();
  /** Per organization, how many times it was dropped: a read that began before a drop is used but not kept. */
  private readonly drops = new Map<number, number>();

  constructor(
    private readonly emoji: CustomEmojiReadonlyRepository,
    private readonly connection: CommandConnection,
  ) {}

  onModuleInit(): void {
    this.connection.subscribe(UsersGroups.CustomEmojiEvents.realmEmojiChanged.subject, (message) => {
      try {
        const { realmId } = JSON.parse(new TextDecoder().decode(message.data)) as { realmId?: unknown };
        if (typeof realmId === 'number') this.drop(realmId);
      } catch {
        this.entries.clear(); // not readable: forget everything rather than keep something stale
      }
    });
  }

  private drop(realmId: number): void {
    this.entries.delete(realmId);
    this.drops.set(realmId, (this.drops.get(realmId) ?? 0) + 1);
  }

  /** The organization's active custom emoji by name. */
  async of(realmId: number): Promise<CustomEmojiImages> {
    const now = Date.now();
    const kept = this.entries.get(realmId);
    if (kept && kept.expires > now) return kept.emoji;
    const drops = this.drops.get(realmId) ?? 0;
    const rows = await this.emoji.active(realmId);
    const emoji = new Map(rows.map((row) => [row.name, `/user_avatars/${UsersGroups.customEmojiPath(realmId, row.fileName)}`]));
    if ((this.drops.get(realmId) ?? 0) === drops) {
      this.entries.delete(realmId);
      if (this.entries.size >= MAX_ORGANIZATIONS) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(realmId, { emoji, expires: now + LIFETIME_MS });
    }
    return emoji;
  }

  /** The emoji `content` may name (`:name:`), looked up only when it names any. */
  async forContent(realmId: number, content: string): Promise<CustomEmojiImages | undefined> {
    return /:[a-z0-9_+-]+:/.test(content) ? this.of(realmId) : undefined;
  }
}

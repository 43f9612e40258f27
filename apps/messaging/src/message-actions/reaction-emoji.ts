import { Injectable } from '@nestjs/common';
import { PgService, isStoredId } from '@teamchat/db';
import { checkEmoji, emojiCatalogue, emojiTypeOf, lookUpEmoji, type CustomEmojiLookup, type EmojiCatalogue, type EmojiType } from '@teamchat/zulip';
import { customEmojiById, customEmojiByName } from '../core/messaging.sql';

/**
 * A reaction's emoji, checked as a status's is (the shared rules in libs/zulip: the Unicode
 * catalogue, the `zulip` emoji, the organization's custom emoji read from users-groups'
 * `realm_emoji`, read only).
 */
@Injectable()
export class ReactionEmoji {
  /** Built when the service starts, not on its first reaction. */
  private readonly catalogue: EmojiCatalogue = emojiCatalogue();

  constructor(private readonly pg: PgService) {}

  private custom(realmId: number): CustomEmojiLookup {
    return {
      activeByName: async (name) => (await this.pg.run(customEmojiByName, realmId, name))[0] ?? null,
      byId: async (id) => (isStoredId(id) ? ((await this.pg.run(customEmojiById, realmId, id))[0] ?? null) : null),
    };
  }

  /** The code and type a name stands for (Zulip's get_emoji_data), or "Emoji '…' does not exist". */
  lookUp(realmId: number, name: string): Promise<{ code: string; type: EmojiType }> {
    return lookUpEmoji(name, this.catalogue, this.custom(realmId));
  }

  /** Zulip's check_emoji_request. */
  check(realmId: number, name: string, code: string, type: string): Promise<void> {
    return checkEmoji(name, code, type, this.catalogue, this.custom(realmId));
  }

  /** The type as stored: the interface's `server_extra_emoji` is Zulip's `zulip_extra_emoji`. */
  typeOf(type: string | undefined): string | undefined {
    return emojiTypeOf(type);
  }
}

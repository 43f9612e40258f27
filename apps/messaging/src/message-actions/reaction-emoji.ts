import { Injectable } from '@nestjs/common';
import { isStoredId } from '@teamchat/db';
import { badRequest, checkEmoji, emojiCatalogue, emojiTypeOf, lookUpEmoji, type CustomEmojiLookup, type EmojiCatalogue, type EmojiType } from '@teamchat/zulip';
import { CustomEmojiReadonlyRepository } from '../data/custom-emoji.readonly.repository';

/**
 * A reaction's emoji, checked as a status's is (the shared rules in libs/zulip: the Unicode
 * catalogue, the `zulip` emoji, the organization's custom emoji read from users-groups'
 * `realm_emoji`, read only).
 */
@Injectable()
export class ReactionEmoji {
  /** Built when the service starts, not on its first reaction. */
  private readonly catalogue: EmojiCatalogue = emojiCatalogue();

  constructor(private readonly customEmoji: CustomEmojiReadonlyRepository) {}

  private custom(realmId: number): CustomEmojiLookup {
    return {
      activeByName: (name) => this.customEmoji.activeByName(realmId, name),
      byId: async (id) => (isStoredId(id) ? this.customEmoji.byId(realmId, id) : null),
    };
  }

  /** The code and type a name stands for (Zulip's get_emoji_data), or "Emoji '…' does not exist". */
  lookUp(realmId: number, name: string): Promise<{ code: string; type: EmojiType }> {
    return lookUpEmoji(name, this.catalogue, this.custom(realmId));
  }

  /**
   * A reaction's emoji as a request names it: the code and type given, what is not given taken
   * from what the name stands for (check_add_reaction; remove_reaction, whose type defaults to
   * unicode_emoji, looks up only the code). A code given is kept, so one that is not the
   * name's is refused by the check that follows ("Invalid emoji code").
   */
  async resolve(realmId: number, name: string | undefined, code: string | undefined, type: string | undefined): Promise<{ code: string; type: string }> {
    if (code !== undefined && type !== undefined) return { code, type };
    if (name === undefined) throw badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');
    const named = await this.lookUp(realmId, name);
    return { code: code ?? named.code, type: type ?? named.type };
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

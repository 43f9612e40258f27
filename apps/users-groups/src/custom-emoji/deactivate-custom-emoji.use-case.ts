import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { badRequest, isAdminRole, type DecodedParams } from '@teamchat/zulip';
import { CustomEmojiRepository } from '../data/custom-emoji.repository';
import { CustomEmojiEvents } from './custom-emoji-events';
import { emojiNotFound, isStorableEmojiName } from './custom-emoji-rules';

type Params = DecodedParams<typeof UsersGroups.deactivateCustomEmojiParams>;

/**
 * DELETE /realm/emoji/{emoji_name} (zerver/views/realm_emoji.py delete_emoji): deactivates the
 * active emoji of that name (404 when there is none); only its author or an administrator
 * (check_remove_custom_emoji). Its files stay: old messages, reactions and statuses still show it.
 */
@Injectable()
export class DeactivateCustomEmoji {
  constructor(
    private readonly emoji: CustomEmojiRepository,
    private readonly events: CustomEmojiEvents,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const name = params.emoji_name;
    const emoji = isStorableEmojiName(name) ? await this.emoji.activeByName(realm.id, name) : null;
    if (!emoji) throw emojiNotFound(name);
    if (!isAdminRole(user.role) && emoji.authorId !== user.id) throw badRequest('Must be an organization administrator or emoji author');
    await this.events.change(
      realm.id,
      async (tx) => {
        // Another request deactivated it meanwhile: as if it had been gone.
        if (!(await this.emoji.deactivate(emoji.id, tx))) throw emojiNotFound(name);
      },
      requestId,
    );
    return {};
  }
}

import { Injectable } from '@nestjs/common';
import type { AuthUser, UsersGroups } from '@teamchat/contracts';
import { badRequest, emojiCatalogue, isAdminRole } from '@teamchat/zulip';
import { CustomEmojiRepository } from '../data/custom-emoji.repository';
import { GroupMembershipRepository } from '../data/group-membership.repository';
import { RealmGroupSettings } from '../realm-settings/realm-group-settings';
import { CustomEmojiEvents } from './custom-emoji-events';
import { checkEmojiName, emojiExists, normalizeEmojiName, requireMemberOrAdmin } from './custom-emoji-rules';

/**
 * The rules of POST /realm/emoji/{emoji_name} (zerver/views/realm_emoji.py upload_emoji), for
 * the uploads service, which serves the request and stores the images. Checked in Zulip's
 * order: a guest or a bot; the name; the organization's can_add_custom_emoji_group; an active
 * emoji of that name. Without a file that is all (the uploads service then checks the file and
 * whether a non-administrator overrides a built-in emoji); with one, the checks run again and
 * the emoji is added, the partial unique index settling a race for the name, and announced.
 */
@Injectable()
export class AddCustomEmoji {
  constructor(
    private readonly emoji: CustomEmojiRepository,
    private readonly settings: RealmGroupSettings,
    private readonly membership: GroupMembershipRepository,
    private readonly events: CustomEmojiEvents,
  ) {}

  async execute({ realm, user, name: raw, file, requestId }: UsersGroups.AddCustomEmojiPayload): Promise<{ name: string; overridesBuiltIn: boolean }> {
    requireMemberOrAdmin(user);
    const name = normalizeEmojiName(raw);
    checkEmojiName(name);
    if (!(await this.mayAdd(user))) throw badRequest('Insufficient permission');
    if (await this.emoji.activeByName(realm.id, name)) throw emojiExists();
    const overridesBuiltIn = emojiCatalogue().codeOf(name) !== undefined;
    if (!file) return { name, overridesBuiltIn };

    if (overridesBuiltIn && !isAdminRole(user.role)) throw badRequest('Only administrators can override built-in emoji.');
    await this.events.change(
      realm.id,
      async (tx) => {
        if (!(await this.emoji.add(realm.id, { name, authorId: user.id, fileName: file.fileName, isAnimated: file.isAnimated }, tx))) throw emojiExists();
      },
      requestId,
    );
    return { name, overridesBuiltIn };
  }

  /**
   * The organization's can_add_custom_emoji_group, decided by group membership as every
   * group-valued setting is. It may not be role:everyone: guests never hold it.
   */
  private async mayAdd(user: AuthUser): Promise<boolean> {
    const { can_add_custom_emoji_group: groupId } = await this.settings.groupIds(user.realmId, ['can_add_custom_emoji_group']);
    return (await this.membership.groupsHolding(user.id, [groupId])).has(groupId);
  }
}

import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { CustomEmojiRepository } from '../data/custom-emoji.repository';
import { customEmojiMap } from './custom-emoji-rules';

/** GET /realm/emoji (zerver/views/realm_emoji.py list_emoji): every emoji by id, deactivated ones included; anyone of the organization. */
@Injectable()
export class ListCustomEmoji {
  constructor(private readonly emoji: CustomEmojiRepository) {}

  async execute({ realm }: UserCommand<Record<string, never>>): Promise<{ emoji: Record<string, UsersGroups.RealmEmojiRecord> }> {
    return { emoji: customEmojiMap(realm.id, await this.emoji.ofRealm(realm.id)) };
  }
}

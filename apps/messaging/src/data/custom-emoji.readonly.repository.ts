import { Injectable } from '@nestjs/common';
import { PgService } from '@teamchat/db';
import { activeCustomEmoji, customEmojiById, customEmojiByName } from './custom-emoji.readonly.sql';

/** READ-ONLY view of users-groups' `realm_emoji`: a reaction's custom emoji, checked; the active ones, for rendering. */
@Injectable()
export class CustomEmojiReadonlyRepository {
  constructor(private readonly pg: PgService) {}

  /** The organization's active custom emoji of this name, if any. */
  async activeByName(realmId: number, name: string): Promise<{ id: number } | null> {
    return (await this.pg.run(customEmojiByName, realmId, name))[0] ?? null;
  }

  /** The organization's custom emoji of this id, deactivated or not. */
  async byId(realmId: number, id: number): Promise<{ id: number; name: string; deactivated: boolean } | null> {
    return (await this.pg.run(customEmojiById, realmId, id))[0] ?? null;
  }

  /** The organization's active custom emoji (names and files). */
  active(realmId: number): Promise<{ name: string; fileName: string }[]> {
    return this.pg.run(activeCustomEmoji, realmId);
  }
}

import { Injectable } from '@nestjs/common';
import { PgService } from '@teamchat/db';
import { customEmojiById, customEmojiByName } from './custom-emoji.readonly.sql';

/** READ-ONLY view of the uploads service's `realm_emoji`: a reaction's custom emoji, checked. */
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
}

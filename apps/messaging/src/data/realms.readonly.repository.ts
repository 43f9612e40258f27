import { Injectable } from '@nestjs/common';
import { PgService } from '@teamchat/db';
import { canMentionManyUsersGroup, realmEditSettings, realmModerationSettings, type RealmEditSettingsRow } from './realms.readonly.sql';

export type { RealmEditSettingsRow } from './realms.readonly.sql';

/** READ-ONLY view of users-groups' `realms`: the organization settings messaging's rules read. */
@Injectable()
export class RealmsReadonlyRepository {
  constructor(private readonly pg: PgService) {}

  /** The group allowed wildcard mentions in large channels and topics, if set. */
  async canMentionManyUsersGroupId(realmId: number): Promise<number | null> {
    return (await this.pg.run(canMentionManyUsersGroup, realmId))[0]?.groupId ?? null;
  }

  /** The organization's editing and deletion settings. */
  async editSettings(realmId: number): Promise<RealmEditSettingsRow | undefined> {
    return (await this.pg.run(realmEditSettings, realmId))[0];
  }

  /** Whether read receipts are on, and the moderation request channel (null: message reporting is off). */
  async moderationSettings(realmId: number): Promise<{ enableReadReceipts: boolean; moderationRequestChannelId: number | null }> {
    return (await this.pg.run(realmModerationSettings, realmId))[0] ?? { enableReadReceipts: false, moderationRequestChannelId: null };
  }
}

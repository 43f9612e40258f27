import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import type { DecodedParams } from '@teamchat/zulip';
import { DraftsRepository } from '../data/drafts.repository';
import { DraftRules, toDraftRecord } from './draft-rules';

type Params = DecodedParams<typeof Messaging.listDraftsParams>;

/** As many drafts as POST /register serves (Zulip's MAX_DRAFTS_IN_REGISTER_RESPONSE). */
export const MAX_DRAFTS_LISTED = 1000;

/** GET /drafts: the caller's drafts, most recently edited first. */
@Injectable()
export class ListDrafts {
  constructor(
    private readonly draftRows: DraftsRepository,
    private readonly rules: DraftRules,
  ) {}

  async execute({ realm, user }: UserCommand<Params>): Promise<{ count: number; drafts: Messaging.DraftRecord[] }> {
    const caller = user;
    await this.rules.assertSyncEnabled(realm.id, caller.id);
    const drafts = await newestDrafts(this.draftRows, caller.id);
    return { count: drafts.length, drafts };
  }
}

/** A user's stored drafts, most recently edited first, at most MAX_DRAFTS_LISTED (also POST /register's). */
export async function newestDrafts(drafts: DraftsRepository, userId: number): Promise<Messaging.DraftRecord[]> {
  return (await drafts.newest(userId, MAX_DRAFTS_LISTED)).map(toDraftRecord);
}

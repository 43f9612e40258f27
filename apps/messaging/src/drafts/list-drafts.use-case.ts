import { Injectable } from '@nestjs/common';
import type { ApiCommand, Messaging } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { DraftRules, toDraftRecord } from './draft-rules';

type Params = DecodedParams<typeof Messaging.listDraftsParams>;

/** As many drafts as POST /register serves (Zulip's MAX_DRAFTS_IN_REGISTER_RESPONSE). */
export const MAX_DRAFTS_LISTED = 1000;

/** GET /drafts: the caller's drafts, most recently edited first. */
@Injectable()
export class ListDrafts {
  constructor(
    private readonly prisma: PrismaService,
    private readonly rules: DraftRules,
  ) {}

  async execute({ realm, user }: ApiCommand<Params>): Promise<{ count: number; drafts: Messaging.DraftRecord[] }> {
    const caller = user!;
    await this.rules.assertSyncEnabled(realm.id, caller.id);
    const rows = await this.prisma.draft.findMany({
      where: { userId: caller.id },
      orderBy: [{ lastEditTime: 'desc' }, { id: 'desc' }],
      take: MAX_DRAFTS_LISTED,
    });
    return { count: rows.length, drafts: rows.map(toDraftRecord) };
  }
}

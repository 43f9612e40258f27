import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { DraftsRepository } from '../data/drafts.repository';
import { DraftRules, draftsEvent, toDraftRecord, type DraftData } from './draft-rules';

type Params = DecodedParams<typeof Messaging.createDraftsParams>;

/**
 * POST /drafts (zerver/lib/drafts.py do_create_drafts): every draft is checked before any is
 * stored; all are stored in one transaction, then one `drafts` add event goes to the owner.
 */
@Injectable()
export class CreateDrafts {
  constructor(
    private readonly drafts: DraftsRepository,
    private readonly rules: DraftRules,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<{ ids: number[] }> {
    const caller = user;
    await this.rules.assertSyncEnabled(realm.id, caller.id);
    const drafts: DraftData[] = [];
    for (const draft of params.drafts) drafts.push(await this.rules.validate(realm.id, caller, draft));

    return this.outbox.runCold(async (tx) => {
      const created = (await this.drafts.createAll(caller.id, drafts, tx)).map(toDraftRecord);
      return {
        value: { ids: created.map((draft) => draft.id) },
        events: created.length > 0 ? [draftsEvent(realm.id, caller.id, { op: 'add', drafts: created })] : [],
      };
    }, requestId);
  }
}

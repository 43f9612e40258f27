import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { DraftsRepository } from '../data/drafts.repository';
import { DraftRules, draftNotFound, draftsEvent, isDraftId } from './draft-rules';

type Params = DecodedParams<typeof Messaging.deleteDraftParams>;

/** DELETE /drafts/{draft_id} (zerver/lib/drafts.py do_delete_draft): the owner gets a remove event. */
@Injectable()
export class DeleteDraft {
  constructor(
    private readonly drafts: DraftsRepository,
    private readonly rules: DraftRules,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const caller = user;
    const id = params.draft_id;
    await this.rules.assertSyncEnabled(realm.id, caller.id);
    if (!isDraftId(id)) throw draftNotFound();
    return this.outbox.runCold(async (tx) => {
      if (!(await this.drafts.delete(id, caller.id, tx))) throw draftNotFound();
      return { value: {}, events: [draftsEvent(realm.id, caller.id, { op: 'remove', draft_id: id })] };
    }, requestId);
  }
}

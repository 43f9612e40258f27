import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { DraftsRepository } from '../data/drafts.repository';
import { DraftRules, draftNotFound, draftsEvent, isDraftId, toDraftRecord } from './draft-rules';

type Params = DecodedParams<typeof Messaging.editDraftParams>;

/**
 * PATCH /drafts/{draft_id} (zerver/lib/drafts.py do_edit_draft): replaces one of the caller's
 * drafts. Another user's draft is as unknown as a missing one. The owner gets an update event.
 */
@Injectable()
export class EditDraft {
  constructor(
    private readonly drafts: DraftsRepository,
    private readonly rules: DraftRules,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const caller = user;
    const id = params.draft_id;
    await this.rules.assertSyncEnabled(realm.id, caller.id);
    const exists = isDraftId(id) && (await this.drafts.exists(id, caller.id));
    if (!exists) throw draftNotFound();

    const data = await this.rules.validate(realm.id, caller, params.draft);
    return this.outbox.runCold(async (tx) => {
      // Scoped to the owner again: the draft may have been deleted meanwhile.
      if (!(await this.drafts.update(id, caller.id, data, tx))) throw draftNotFound();
      return { value: {}, events: [draftsEvent(realm.id, caller.id, { op: 'update', draft: toDraftRecord({ id, ...data }) })] };
    }, requestId);
  }
}

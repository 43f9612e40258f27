import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { EventBus } from '@teamchat/platform';
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
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const caller = user;
    const id = params.draft_id;
    await this.rules.assertSyncEnabled(realm.id, caller.id);
    const deleted = isDraftId(id) && (await this.drafts.delete(id, caller.id));
    if (!deleted) throw draftNotFound();

    await this.events.publishAll([draftsEvent(realm.id, caller.id, { op: 'remove', draft_id: id })], requestId);
    return {};
  }
}

import { Injectable } from '@nestjs/common';
import type { ApiCommand, Messaging } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import { EventBus } from '@teamchat/platform';
import type { DecodedParams } from '@teamchat/zulip';
import { DraftRules, draftNotFound, draftsEvent, isDraftId, toDraftRecord } from './draft-rules';

type Params = DecodedParams<typeof Messaging.editDraftParams>;

/**
 * PATCH /drafts/{draft_id} (zerver/lib/drafts.py do_edit_draft): replaces one of the caller's
 * drafts. Another user's draft is as unknown as a missing one. The owner gets an update event.
 */
@Injectable()
export class EditDraft {
  constructor(
    private readonly prisma: PrismaService,
    private readonly rules: DraftRules,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: ApiCommand<Params>): Promise<Record<string, never>> {
    const caller = user!;
    const id = params.draft_id;
    await this.rules.assertSyncEnabled(realm.id, caller.id);
    const exists = isDraftId(id) && (await this.prisma.draft.count({ where: { id, userId: caller.id } })) > 0;
    if (!exists) throw draftNotFound();

    const data = await this.rules.validate(realm.id, caller, params.draft);
    // Scoped to the owner again: the draft may have been deleted meanwhile.
    const { count } = await this.prisma.draft.updateMany({ where: { id, userId: caller.id }, data });
    if (count === 0) throw draftNotFound();

    const draft = toDraftRecord({ id, ...data });
    await this.events.publishAll([draftsEvent(realm.id, caller.id, { op: 'update', draft })], requestId);
    return {};
  }
}

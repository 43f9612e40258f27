import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { EventBus } from '@teamchat/platform';
import type { DecodedParams } from '@teamchat/zulip';
import { SavedSnippetsRepository } from '../data/saved-snippets.repository';
import { isSavedSnippetId, savedSnippetNotFound, savedSnippetsEvent, toSavedSnippetRecord } from './saved-snippet-rules';

/** PATCH /saved_snippets/{id} (do_edit_saved_snippet): nothing to change is a success with no event, as in Zulip. */
@Injectable()
export class EditSavedSnippet {
  constructor(
    private readonly snippets: SavedSnippetsRepository,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.editSavedSnippetParams>>): Promise<Record<string, never>> {
    const { saved_snippet_id: id, title, content } = params;
    if (title === undefined && content === undefined) return {};
    const row = isSavedSnippetId(id) ? await this.snippets.update(id, user.id, { title, content }) : null;
    if (!row) throw savedSnippetNotFound();
    await this.events.publishAll([savedSnippetsEvent(realm.id, user.id, { op: 'update', saved_snippet: toSavedSnippetRecord(row) })], requestId);
    return {};
  }
}

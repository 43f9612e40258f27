import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { SavedSnippetsRepository } from '../data/saved-snippets.repository';
import { isSavedSnippetId, savedSnippetNotFound, savedSnippetsEvent, toSavedSnippetRecord } from './saved-snippet-rules';

/** PATCH /saved_snippets/{id} (do_edit_saved_snippet): nothing to change is a success with no event, as in Zulip. */
@Injectable()
export class EditSavedSnippet {
  constructor(
    private readonly snippets: SavedSnippetsRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.editSavedSnippetParams>>): Promise<Record<string, never>> {
    const { saved_snippet_id: id, title, content } = params;
    if (title === undefined && content === undefined) return {};
    if (!isSavedSnippetId(id)) throw savedSnippetNotFound();
    return this.outbox.runCold(async (tx) => {
      const row = await this.snippets.update(id, user.id, { title, content }, tx);
      if (!row) throw savedSnippetNotFound();
      return { value: {}, events: [savedSnippetsEvent(realm.id, user.id, { op: 'update', saved_snippet: toSavedSnippetRecord(row) })] };
    }, requestId);
  }
}

import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { SavedSnippetsRepository } from '../data/saved-snippets.repository';
import { isSavedSnippetId, savedSnippetNotFound, savedSnippetsEvent } from './saved-snippet-rules';

/** DELETE /saved_snippets/{id} (do_delete_saved_snippet): the owner's clients get a remove event. */
@Injectable()
export class DeleteSavedSnippet {
  constructor(
    private readonly snippets: SavedSnippetsRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.savedSnippetPathParams>>): Promise<Record<string, never>> {
    const id = params.saved_snippet_id;
    if (!isSavedSnippetId(id)) throw savedSnippetNotFound();
    return this.outbox.runCold(async (tx) => {
      if (!(await this.snippets.delete(id, user.id, tx))) throw savedSnippetNotFound();
      return { value: {}, events: [savedSnippetsEvent(realm.id, user.id, { op: 'remove', saved_snippet_id: id })] };
    }, requestId);
  }
}

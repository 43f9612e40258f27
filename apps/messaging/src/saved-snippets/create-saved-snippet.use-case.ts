import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { SavedSnippetsRepository } from '../data/saved-snippets.repository';
import { savedSnippetsEvent, toSavedSnippetRecord } from './saved-snippet-rules';

/** POST /saved_snippets (do_create_saved_snippet): the owner's clients get an add event. */
@Injectable()
export class CreateSavedSnippet {
  constructor(
    private readonly snippets: SavedSnippetsRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.createSavedSnippetParams>>): Promise<{ saved_snippet_id: number }> {
    return this.outbox.runCold(async (tx) => {
      const row = await this.snippets.create(user.id, params.title, params.content, tx);
      return {
        value: { saved_snippet_id: row.id },
        events: [savedSnippetsEvent(realm.id, user.id, { op: 'add', saved_snippet: toSavedSnippetRecord(row) })],
      };
    }, requestId);
  }
}

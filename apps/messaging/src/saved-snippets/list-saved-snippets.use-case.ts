import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { SavedSnippetsRepository } from '../data/saved-snippets.repository';
import { toSavedSnippetRecord } from './saved-snippet-rules';

/** GET /saved_snippets (zerver/actions/saved_snippets.py do_get_saved_snippets). */
@Injectable()
export class ListSavedSnippets {
  constructor(private readonly snippets: SavedSnippetsRepository) {}

  async execute({ user }: UserCommand<Record<string, never>>): Promise<{ saved_snippets: Messaging.SavedSnippetRecord[] }> {
    return { saved_snippets: (await this.snippets.ofUser(user.id)).map(toSavedSnippetRecord) };
  }
}

import { Controller, Module } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { MessagingCoreModule } from '../core/core.module';
import { CreateSavedSnippet } from './create-saved-snippet.use-case';
import { DeleteSavedSnippet } from './delete-saved-snippet.use-case';
import { EditSavedSnippet } from './edit-saved-snippet.use-case';
import { ListSavedSnippets } from './list-saved-snippets.use-case';

@Controller()
export class SavedSnippetsHandler {
  constructor(
    private readonly listUseCase: ListSavedSnippets,
    private readonly createUseCase: CreateSavedSnippet,
    private readonly editUseCase: EditSavedSnippet,
    private readonly deleteUseCase: DeleteSavedSnippet,
  ) {}

  @CommandHandler(Messaging.listSavedSnippets)
  list(@Payload() payload: PayloadOf<typeof Messaging.listSavedSnippets>) {
    return this.listUseCase.execute(payload);
  }

  @CommandHandler(Messaging.createSavedSnippet)
  create(@Payload() payload: PayloadOf<typeof Messaging.createSavedSnippet>) {
    return this.createUseCase.execute(payload);
  }

  @CommandHandler(Messaging.editSavedSnippet)
  edit(@Payload() payload: PayloadOf<typeof Messaging.editSavedSnippet>) {
    return this.editUseCase.execute(payload);
  }

  @CommandHandler(Messaging.deleteSavedSnippet)
  delete(@Payload() payload: PayloadOf<typeof Messaging.deleteSavedSnippet>) {
    return this.deleteUseCase.execute(payload);
  }
}

/** Saved snippets: GET/POST /saved_snippets, PATCH/DELETE /saved_snippets/{saved_snippet_id}. */
@Module({
  imports: [MessagingCoreModule],
  controllers: [SavedSnippetsHandler],
  providers: [ListSavedSnippets, CreateSavedSnippet, EditSavedSnippet, DeleteSavedSnippet],
})
export class SavedSnippetsModule {}

import { Controller } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { CreateDrafts } from './create-drafts.use-case';
import { DeleteDraft } from './delete-draft.use-case';
import { DeleteUserDrafts } from './delete-user-drafts.use-case';
import { EditDraft } from './edit-draft.use-case';
import { ListDrafts } from './list-drafts.use-case';

@Controller()
export class DraftsHandler {
  constructor(
    private readonly listUseCase: ListDrafts,
    private readonly createUseCase: CreateDrafts,
    private readonly editUseCase: EditDraft,
    private readonly deleteUseCase: DeleteDraft,
    private readonly deleteAllUseCase: DeleteUserDrafts,
  ) {}

  @CommandHandler(Messaging.deleteUserDrafts)
  deleteAll(@Payload() payload: PayloadOf<typeof Messaging.deleteUserDrafts>) {
    return this.deleteAllUseCase.execute(payload);
  }

  @CommandHandler(Messaging.listDrafts)
  list(@Payload() payload: PayloadOf<typeof Messaging.listDrafts>) {
    return this.listUseCase.execute(payload);
  }

  @CommandHandler(Messaging.createDrafts)
  create(@Payload() payload: PayloadOf<typeof Messaging.createDrafts>) {
    return this.createUseCase.execute(payload);
  }

  @CommandHandler(Messaging.editDraft)
  edit(@Payload() payload: PayloadOf<typeof Messaging.editDraft>) {
    return this.editUseCase.execute(payload);
  }

  @CommandHandler(Messaging.deleteDraft)
  delete(@Payload() payload: PayloadOf<typeof Messaging.deleteDraft>) {
    return this.deleteUseCase.execute(payload);
  }
}

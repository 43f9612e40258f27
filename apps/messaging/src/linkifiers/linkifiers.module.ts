import { Controller, Module } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { MessagingCoreModule } from '../core/core.module';
import { AnnounceOrganizationLists } from './announce';
import { CreateLinkifier } from './create-linkifier.use-case';
import { CreatePlayground } from './create-playground.use-case';
import { DeleteLinkifier } from './delete-linkifier.use-case';
import { DeletePlayground } from './delete-playground.use-case';
import { ListLinkifiers } from './list-linkifiers.use-case';
import { ReorderLinkifiers } from './reorder-linkifiers.use-case';
import { UpdateLinkifier } from './update-linkifier.use-case';

@Controller()
export class LinkifiersHandler {
  constructor(
    private readonly listUseCase: ListLinkifiers,
    private readonly createUseCase: CreateLinkifier,
    private readonly updateUseCase: UpdateLinkifier,
    private readonly deleteUseCase: DeleteLinkifier,
    private readonly reorderUseCase: ReorderLinkifiers,
    private readonly createPlaygroundUseCase: CreatePlayground,
    private readonly deletePlaygroundUseCase: DeletePlayground,
  ) {}

  @CommandHandler(Messaging.listLinkifiers)
  list(@Payload() payload: PayloadOf<typeof Messaging.listLinkifiers>) {
    return this.listUseCase.execute(payload);
  }

  @CommandHandler(Messaging.createLinkifier)
  create(@Payload() payload: PayloadOf<typeof Messaging.createLinkifier>) {
    return this.createUseCase.execute(payload);
  }

  @CommandHandler(Messaging.updateLinkifier)
  update(@Payload() payload: PayloadOf<typeof Messaging.updateLinkifier>) {
    return this.updateUseCase.execute(payload);
  }

  @CommandHandler(Messaging.deleteLinkifier)
  delete(@Payload() payload: PayloadOf<typeof Messaging.deleteLinkifier>) {
    return this.deleteUseCase.execute(payload);
  }

  @CommandHandler(Messaging.reorderLinkifiers)
  reorder(@Payload() payload: PayloadOf<typeof Messaging.reorderLinkifiers>) {
    return this.reorderUseCase.execute(payload);
  }

  @CommandHandler(Messaging.createPlayground)
  createPlayground(@Payload() payload: PayloadOf<typeof Messaging.createPlayground>) {
    return this.createPlaygroundUseCase.execute(payload);
  }

  @CommandHandler(Messaging.deletePlayground)
  deletePlayground(@Payload() payload: PayloadOf<typeof Messaging.deletePlayground>) {
    return this.deletePlaygroundUseCase.execute(payload);
  }
}

/**
 * Linkifiers and code playgrounds: GET/PATCH /realm/linkifiers, POST /realm/filters,
 * PATCH/DELETE /realm/filters/{filter_id}, POST /realm/playgrounds,
 * DELETE /realm/playgrounds/{playground_id}. The renderer's cache (RealmLinkifiers) is in the core module.
 */
@Module({
  imports: [MessagingCoreModule],
  controllers: [LinkifiersHandler],
  providers: [AnnounceOrganizationLists, ListLinkifiers, CreateLinkifier, UpdateLinkifier, DeleteLinkifier, ReorderLinkifiers, CreatePlayground, DeletePlayground],
})
export class LinkifiersModule {}

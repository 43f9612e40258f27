import { Module } from '@nestjs/common';
import { MessagingCoreModule } from '../core/core.module';
import { CreateDrafts } from './create-drafts.use-case';
import { DeleteDraft } from './delete-draft.use-case';
import { DeleteUserDrafts } from './delete-user-drafts.use-case';
import { DraftRules } from './draft-rules';
import { DraftsHandler } from './drafts.handler';
import { EditDraft } from './edit-draft.use-case';
import { ListDrafts } from './list-drafts.use-case';

/** Drafts: GET/POST /drafts, PATCH/DELETE /drafts/{draft_id}. */
@Module({
  imports: [MessagingCoreModule],
  controllers: [DraftsHandler],
  providers: [DraftRules, ListDrafts, CreateDrafts, EditDraft, DeleteDraft, DeleteUserDrafts],
})
export class DraftsModule {}

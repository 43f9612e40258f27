import { Controller } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { ApiCommandOf } from '../http/api-command.decorator';
import { Route } from '../http/route.decorator';

/** Drafts routes, served by messaging. */
@Controller()
export class DraftsController {
  constructor(private readonly commands: CommandClient) {}

  @Route(Messaging.listDrafts)
  list(@ApiCommandOf(Messaging.listDrafts) command: PayloadOf<typeof Messaging.listDrafts>) {
    return this.commands.call(Messaging.listDrafts, command);
  }

  @Route(Messaging.createDrafts)
  create(@ApiCommandOf(Messaging.createDrafts) command: PayloadOf<typeof Messaging.createDrafts>) {
    return this.commands.call(Messaging.createDrafts, command);
  }

  @Route(Messaging.editDraft)
  edit(@ApiCommandOf(Messaging.editDraft) command: PayloadOf<typeof Messaging.editDraft>) {
    return this.commands.call(Messaging.editDraft, command);
  }

  @Route(Messaging.deleteDraft)
  delete(@ApiCommandOf(Messaging.deleteDraft) command: PayloadOf<typeof Messaging.deleteDraft>) {
    return this.commands.call(Messaging.deleteDraft, command);
  }
}

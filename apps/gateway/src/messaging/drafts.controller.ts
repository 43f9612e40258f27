import { Controller, Delete, Get, Patch, Post } from '@nestjs/common';
import { Messaging, type PayloadOf } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { ApiCommandOf } from '../http/api-command.decorator';
import { ApiCommandWithPath } from '../http/path-params';

/** Drafts routes, served by messaging. */
@Controller()
export class DraftsController {
  constructor(private readonly commands: CommandClient) {}

  @Get('drafts')
  list(@ApiCommandOf(Messaging.listDrafts) command: PayloadOf<typeof Messaging.listDrafts>) {
    return this.commands.call(Messaging.listDrafts, command);
  }

  @Post('drafts')
  create(@ApiCommandOf(Messaging.createDrafts) command: PayloadOf<typeof Messaging.createDrafts>) {
    return this.commands.call(Messaging.createDrafts, command);
  }

  @Patch('drafts/:draft_id')
  edit(@ApiCommandWithPath(Messaging.editDraft, 'draft_id') command: PayloadOf<typeof Messaging.editDraft>) {
    return this.commands.call(Messaging.editDraft, command);
  }

  @Delete('drafts/:draft_id')
  delete(@ApiCommandWithPath(Messaging.deleteDraft, 'draft_id') command: PayloadOf<typeof Messaging.deleteDraft>) {
    return this.commands.call(Messaging.deleteDraft, command);
  }
}

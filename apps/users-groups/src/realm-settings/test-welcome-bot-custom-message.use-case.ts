import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { badRequest, isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
import { OrganizationsRepository } from '../data/organizations.repository';
import { WelcomeBot, customWelcomeMessage } from './welcome-bot';

type Params = DecodedParams<(typeof UsersGroups.testWelcomeBotCustomMessage)['params']>;

/**
 * POST /realm/test_welcome_bot_custom_message (zerver/views/welcome_bot_custom_message.py): an
 * administrator previews the custom welcome message: Welcome Bot sends it, with this text, to them.
 */
@Injectable()
export class TestWelcomeBotCustomMessage {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly welcomeBot: WelcomeBot,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<{ message_id: number }> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    if (params.welcome_message_custom_text.length === 0) throw badRequest('Message must not be empty');
    const { name } = await this.organizations.byIdOrThrow(realm.id);
    const messageId = await this.welcomeBot.send(realm, user.id, customWelcomeMessage(name, params.welcome_message_custom_text), requestId);
    return { message_id: messageId };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Messaging, UsersGroups } from '@teamchat/contracts';
import { CommandClient, LOGGER } from '@teamchat/platform';
import type { Logger } from 'pino';
import { isAdminRole } from '@teamchat/zulip';
import { Transactions } from '../data/transactions';
import { UsersRepository } from '../data/users.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { CreateUser } from '../users/create-user.use-case';

/** Zulip's education organization types, whose welcome message points at the guides for classes. */
const EDUCATION_ORG_TYPES = [30, 35];

/**
 * Welcome Bot (Zulip's WELCOME_BOT, zerver/lib/onboarding.py): the organization's bot account
 * `welcome-bot@<host>`, created the first time it is needed (serialized per organization), which
 * sends new users their first direct message, and the organization's custom welcome text.
 */
@Injectable()
export class WelcomeBot {
  constructor(
    private readonly users: UsersRepository,
    private readonly transactions: Transactions,
    private readonly realms: RealmDirectory,
    private readonly createUser: CreateUser,
    private readonly commands: CommandClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Look-ups in flight per organization: a burst of sign-ups waits on one, not one connection each. */
  private readonly finding = new Map<number, Promise<number>>();

  /** The bot's user id. */
  id(realm: { id: number; subdomain: string }): Promise<number> {
    const inFlight = this.finding.get(realm.id);
    if (inFlight) return inFlight;
    const found = this.findOrCreate(realm).finally(() => this.finding.delete(realm.id));
    this.finding.set(realm.id, found);
    return found;
  }

  private async findOrCreate(realm: { id: number; subdomain: string }): Promise<number> {
    const email = `${UsersGroups.WELCOME_BOT_LOCAL_PART}@${this.realms.hostnameOf(realm.subdomain)}`;
    const existing = await this.users.botWithEmail(realm.id, email);
    if (existing !== null) return existing;
    return this.transactions.run(async (tx) => {
      await this.users.lockSystemBotCreation(realm.id, UsersGroups.WELCOME_BOT_LOCAL_PART, tx);
      const found = await this.users.botWithEmail(realm.id, email, tx);
      if (found !== null) return found;
      const bot = await this.createUser.execute({ realmId: realm.id, email, fullName: UsersGroups.WELCOME_BOT_NAME, isBot: true, botType: 1 }, tx);
      return bot.id;
    });
  }

  /** Sends `content` from Welcome Bot to the user, as a direct message; its id. */
  async send(realm: { id: number; subdomain: string }, userId: number, content: string, requestId: string): Promise<number> {
    const botId = await this.id(realm);
    const { id } = await this.commands.call(Messaging.sendScheduledMessage, {
      realmId: realm.id,
      senderId: botId,
      client: 'Internal',
      readBySender: null,
      requestId,
      type: 'private',
      to: JSON.stringify([userId]),
      content,
    });
    return id;
  }

  /**
   * A new user's welcome (send_initial_direct_message): Zulip's greeting (with the organization
   * guide for administrators), then the organization's custom text when it has one. Best effort:
   * the account exists whatever happens here; a failure is logged.
   */
  async welcome(
    realm: { id: number; subdomain: string; name: string },
    user: { id: number; role: number },
    settings: { orgType: number; welcomeMessageCustomText: string },
    requestId: string,
  ): Promise<void> {
    try {
      await this.send(realm, user.id, greeting(isAdminRole(user.role), EDUCATION_ORG_TYPES.includes(settings.orgType)), `${requestId}-welcome`);
      if (settings.welcomeMessageCustomText !== '') {
        await this.send(realm, user.id, customWelcomeMessage(realm.name, settings.welcomeMessageCustomText), `${requestId}-welcome-custom`);
      }
    } catch (err) {
      this.logger.error({ err, userId: user.id }, 'welcome message not sent');
    }
  }
}

/** Zulip's initial Welcome Bot message (no navigation tour video is configured here). */
export function greeting(administrator: boolean, education: boolean): string {
  const guide = education
    ? 'To learn more, check out our [using Zulip for a class guide](/help/using-zulip-for-a-class)!'
    : 'To learn more, check out our [getting started guide](/help/getting-started-with-zulip)!';
  const setup = education
    ? ' We also have a guide for [setting up Zulip for a class](/help/setting-up-zulip-for-a-class).'
    : ' We also have a guide for [moving your organization to Zulip](/help/moving-to-zulip).';
  return `Hello, and welcome to Zulip!👋\n\n${guide}${administrator ? setup : ''}`;
}

/** The organization's custom welcome text, as Welcome Bot sends it (get_custom_welcome_message_string). */
export function customWelcomeMessage(realmName: string, text: string): string {
  return `A message from the administrators of ${realmName}:\n\n${text}`;
}

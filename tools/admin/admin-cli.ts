/**
 * The admin command line: `npm run admin -- <command> [options]`. It works on the database
 * through the same use cases the users-groups service runs.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { PgService, channelIdsNamed, openPrisma, type PrismaService } from '@teamchat/db';
import { CommandClient, ConfigError, EventBus, createLogger, loadConfig, type AppConfig } from '@teamchat/platform';
import { CHANNEL_PERMISSION_SETTING_NAMES } from '@teamchat/contracts';
import { Role, ZulipError } from '@teamchat/zulip';
import { RealmDirectory } from '../../apps/users-groups/src/realms/realm-directory';
import { CreateOrganization } from '../../apps/users-groups/src/organizations/create-organization.use-case';
import { CreateUser } from '../../apps/users-groups/src/users/create-user.use-case';
import { AccountCredentials } from '../../apps/users-groups/src/users/account-credentials.use-case';
import { CredentialsRepository } from '../../apps/users-groups/src/data/credentials.repository';
import { OrganizationsRepository } from '../../apps/users-groups/src/data/organizations.repository';
import { Transactions } from '../../apps/users-groups/src/data/transactions';
import { UsersRepository } from '../../apps/users-groups/src/data/users.repository';
import { Subscribe } from '../../apps/messaging/src/channels/subscribe.use-case';
import { ChannelCreation } from '../../apps/messaging/src/channels/channel-creation';
import { defaultChannelIds } from '../../apps/messaging/src/default-channels/default-channels';
import { SubscribeToDefaultChannels } from '../../apps/messaging/src/default-channels/subscribe-to-default-channels.use-case';
import { UsersReadonlyRepository as UserDirectoryReadonly } from '../../apps/messaging/src/data/users.readonly.repository';
import { ChannelStatsReader } from '../../apps/messaging/src/channels/channel-stats';
import { ChannelPermissions } from '../../apps/messaging/src/channel-administration/channel-permissions';
import { ChannelFoldersRepository } from '../../apps/messaging/src/data/channel-folders.repository';
import { ChannelStatsRepository } from '../../apps/messaging/src/data/channel-stats.repository';
import { ChannelsRepository } from '../../apps/messaging/src/data/channels.repository';
import { GroupsReadonlyRepository } from '../../apps/messaging/src/data/groups.readonly.repository';
import { MessagesRepository } from '../../apps/messaging/src/data/messages.repository';
import { SubscriptionsRepository } from '../../apps/messaging/src/data/subscriptions.repository';
import { Transactions as MessagingTransactions } from '../../apps/messaging/src/data/transactions';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-organization --name NAME --owner-email EMAIL --owner-name NAME
                      [--subdomain SUB] [--owner-password PASSWORD] [--public]
      Creates an organization and its owner. Without --subdomain it is served at the root
      domain (EXTERNAL_URL). Prints the owner's API key.
  create-user --email EMAIL --name NAME [--organization SUB] [--role ROLE] [--password PASSWORD] [--bot]
      ROLE is owner, administrator, moderator, member (default) or guest, or Zulip's number.
  reset-password --email EMAIL --password PASSWORD [--organization SUB]
  api-key --email EMAIL [--organization SUB] [--rotate]
      Prints the user's API key; --rotate replaces it first.
  list-organizations
  create-channel --name NAME --creator-email EMAIL [--organization SUB] [--description TEXT]
                 [--private] [--subscribe EMAIL,EMAIL…]
      Creates a channel as that user would (the same rules as POST /users/me/subscriptions),
      subscribing the creator and anyone listed.

Options for every command: --json prints the result as JSON.
--organization is the subdomain; it defaults to the root organization ("").`;

const ROLES: Record<string, number> = {
  owner: Role.OWNER,
  administrator: Role.ADMINISTRATOR,
  admin: Role.ADMINISTRATOR,
  moderator: Role.MODERATOR,
  member: Role.MEMBER,
  guest: Role.GUEST,
};

class UsageError extends Error {}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function parseRole(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const role = ROLES[text.toLowerCase()] ?? Number(text);
  if (!Number.isInteger(role)) throw new UsageError(`Unknown role '${text}'`);
  return role;
}

async function run(argv: string[], prisma: PrismaService, pg: PgService, realms: RealmDirectory, config: AppConfig): Promise<unknown> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      subdomain: { type: 'string' },
      organization: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-name': { type: 'string' },
      'owner-password': { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      password: { type: 'string' },
      public: { type: 'boolean' },
      bot: { type: 'boolean' },
      rotate: { type: 'boolean' },
      'creator-email': { type: 'string' },
      description: { type: 'string' },
      private: { type: 'boolean' },
      subscribe: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const organizations = new OrganizationsRepository(prisma, pg);
  const users = new UsersRepository(prisma, pg);
  const createUser = new CreateUser(organizations, users);
  const credentials = new AccountCredentials(users, new CredentialsRepository(prisma, pg));
  const organization = async () => {
    const subdomain = (values.organization ?? '').toLowerCase();
    const realm = await realms.bySubdomain(subdomain);
    if (!realm) throw new UsageError(`No organization with subdomain '${subdomain}'`);
    return realm;
  };

  /**
   * Runs messaging's subscription path here, with the same events as the API publishes, so
   * running clients learn of the change. No permission groups are asked for by the commands, so
   * the command client never connects.
   */
  const withSubscribe = async <T>(run: (subscribe: Subscribe, pg: PgService) => Promise<T>): Promise<T> => {
    const events = new EventBus(config, createLogger('admin-cli', 'warn'));
    await events.onModuleInit();
    const pg = new PgService(config.DATABASE_URL);
    const groups = new GroupsReadonlyRepository(pg);
    const channels = new ChannelsRepository(pg, prisma);
    const subscriptions = new SubscriptionsRepository(pg, prisma);
    const subscribe = new Subscribe(
      new MessagingTransactions(pg, prisma),
      channels,
      subscriptions,
      new MessagesRepository(pg, prisma),
      new UserDirectoryReadonly(pg),
      new ChannelStatsReader(new ChannelStatsRepository(pg), groups),
      events,
      new ChannelPermissions(channels, subscriptions, groups),
      new ChannelCreation(new ChannelFoldersRepository(prisma), new CommandClient(config)),
    );
    return run(subscribe, pg).finally(() => Promise.all([events.onApplicationShutdown(), pg.onApplicationShutdown()]));
  };

  switch (command) {
    case 'create-organization': {
      const { realm, owner } = await new CreateOrganization(organizations, new Transactions(prisma, pg), createUser).execute({
        name: required(values, 'name'),
        subdomain: values.subdomain ?? '',
        spectatorAccess: values.public ?? false,
        owner: {
          email: required(values, 'owner-email'),
          fullName: required(values, 'owner-name'),
          password: values['owner-password'],
        },
      });
      return {
        organization_id: realm.id,
        subdomain: realm.subdomain,
        url: realms.urlOf(realm.subdomain),
        owner_user_id: owner.id,
        owner_email: owner.deliveryEmail,
        api_key: await credentials.apiKey(owner.id),
      };
    }
    case 'create-user': {
      const realm = await organization();
      const user = await createUser.execute({
        realmId: realm.id,
        email: required(values, 'email'),
        fullName: required(values, 'name'),
        role: parseRole(values.role),
        password: values.password,
        isBot: values.bot ?? false,
      });
      // A new user joins the default channels, with the API's events (messaging's rule); with
      // none, nothing connects to NATS.
      const hasDefaults = (await defaultChannelIds(prisma, realm.id)).length > 0;
      const channels = !hasDefaults ? [] : await withSubscribe((subscribe, pg) =>
        new SubscribeToDefaultChannels(new ChannelsRepository(pg, prisma), new UserDirectoryReadonly(pg), subscribe).execute(
          {
            id: user.id,
            realmId: realm.id,
            email: user.deliveryEmail,
            deliveryEmail: user.deliveryEmail,
            fullName: user.fullName,
            role: user.role,
            isBot: user.isBot,
          },
          'admin-cli',
        ),
      );
      return {
        user_id: user.id,
        email: user.deliveryEmail,
        role: user.role,
        api_key: await credentials.apiKey(user.id),
        ...(channels.length > 0 ? { default_channels: channels } : {}),
      };
    }
    case 'reset-password': {
      const user = await credentials.findByEmail((await organization()).id, required(values, 'email'));
      await credentials.setPassword(user.id, required(values, 'password'));
      return { user_id: user.id, email: user.deliveryEmail, password: 'updated' };
    }
    case 'api-key': {
      const user = await credentials.findByEmail((await organization()).id, required(values, 'email'));
      const apiKey = values.rotate ? await credentials.rotateApiKey(user.id) : await credentials.apiKey(user.id);
      return { user_id: user.id, email: user.deliveryEmail, api_key: apiKey };
    }
    case 'list-organizations': {
      const list = await prisma.realm.findMany({ orderBy: { id: 'asc' }, include: { _count: { select: { users: true } } } });
      return list.map((realm) => ({
        organization_id: realm.id,
        subdomain: realm.subdomain,
        name: realm.name,
        url: realms.urlOf(realm.subdomain),
        users: realm._count.users,
        deactivated: realm.deactivated,
      }));
    }
    case 'create-channel': {
      const realm = await organization();
      const creator = await credentials.findByEmail(realm.id, required(values, 'creator-email'));
      const name = required(values, 'name');
      const others = (values.subscribe ?? '').split(',').map((e) => e.trim()).filter(Boolean);
      const result = await withSubscribe((subscribe) =>
        subscribe.execute({
        realm: realms.toInfo(realm),
        user: {
          id: creator.id,
          realmId: realm.id,
          email: creator.deliveryEmail,
          deliveryEmail: creator.deliveryEmail,
          fullName: creator.fullName,
          role: creator.role,
          isBot: creator.isBot,
        },
        requestId: 'admin-cli',
        params: {
          subscriptions: [{ name, description: values.description }],
          principals: others.length ? [creator.deliveryEmail, ...others] : undefined,
          authorization_errors_fatal: true,
          announce: false,
          invite_only: values.private ?? false,
          is_web_public: false,
          is_default_stream: false,
          history_public_to_subscribers: undefined,
          folder_id: undefined,
          ...(Object.fromEntries(CHANNEL_PERMISSION_SETTING_NAMES.map((setting) => [setting, undefined])) as Record<
            (typeof CHANNEL_PERMISSION_SETTING_NAMES)[number],
            undefined
          >),
        },
      }),
      );
      const [id] = await channelIdsNamed(prisma, realm.id, [name.trim()]);
      if (id === undefined) throw new UsageError(`No channel named '${name.trim()}'`);
      const channel = await prisma.stream.findUniqueOrThrow({ where: { id } });
      return { stream_id: channel.id, name: channel.name, invite_only: channel.inviteOnly, subscribed: result.subscribed };
    }
    default:
      throw new UsageError(command ? `Unknown command '${command}'` : 'No command given');
  }
}

function print(result: unknown, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else if (Array.isArray(result)) {
    if (result.length === 0) process.stdout.write('No organizations yet.\n');
    for (const row of result) process.stdout.write(`${Object.entries(row).map(([k, v]) => `${k}=${v}`).join('  ')}\n`);
  } else {
    for (const [key, value] of Object.entries(result as object)) process.stdout.write(`${key}: ${value}\n`);
  }
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  let prisma: PrismaService | undefined;
  let pg: PgService | undefined;
  try {
    const config = loadConfig();
    prisma = openPrisma(config.DATABASE_URL);
    pg = new PgService(config.DATABASE_URL);
    const result = await run(argv, prisma, pg, new RealmDirectory(new OrganizationsRepository(prisma, pg), config), config);
    print(result, argv.includes('--json'));
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof ZulipError || error instanceof ConfigError) {
      process.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await Promise.all([prisma?.$disconnect(), pg?.onApplicationShutdown()]);
  }
}

main().then((code) => process.exit(code));

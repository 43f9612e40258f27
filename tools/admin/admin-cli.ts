/**
 * The admin command line: `npm run admin -- <command> [options]`. It works on the database
 * through the same use cases the services run, taken through one entry per service
 * (users-groups' UsersGroupsAdmin, messaging's MessagingAdmin).
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type AppConfig } from '@teamchat/platform';
import { Role, ZulipError } from '@teamchat/zulip';
// One entry per service: the use cases each offers the command line.
import { MessagingAdmin } from '../../apps/messaging/src/admin/messaging-admin';
import { UsersGroupsAdmin } from '../../apps/users-groups/src/admin/users-groups-admin';
import { ImportError, UploadsAdmin } from '../../apps/uploads/src/admin/uploads-admin';

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
  import-realm ARCHIVE [--subdomain SUB]
      Loads an organization export (the tar.gz of POST /export/realm) as a new organization, at
      SUB or the subdomain it was exported from, which must be free. Ids are renumbered, files
      go into the upload storage, every user gets a new API key (no passwords are exported).

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

interface Services {
  usersGroups: UsersGroupsAdmin;
  /** Opened on first use: most commands touch only users-groups. */
  messaging(): MessagingAdmin;
  uploads(): UploadsAdmin;
}

async function run(argv: string[], services: Services): Promise<unknown> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: command === 'import-realm',
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
  const { usersGroups } = services;
  const organization = async () => {
    const subdomain = (values.organization ?? '').toLowerCase();
    const realm = await usersGroups.organization(subdomain);
    if (!realm) throw new UsageError(`No organization with subdomain '${subdomain}'`);
    return realm;
  };

  switch (command) {
    case 'create-organization':
      return usersGroups.createOrganization({
        name: required(values, 'name'),
        subdomain: values.subdomain ?? '',
        spectatorAccess: values.public ?? false,
        owner: {
          email: required(values, 'owner-email'),
          fullName: required(values, 'owner-name'),
          password: values['owner-password'],
        },
      });
    case 'create-user': {
      const realm = await organization();
      const { user, apiKey } = await usersGroups.createUser({
        realmId: realm.id,
        email: required(values, 'email'),
        fullName: required(values, 'name'),
        role: parseRole(values.role),
        password: values.password,
        isBot: values.bot ?? false,
      });
      // A new user joins the default channels, with the API's events (messaging's rule).
      const channels = await services.messaging().subscribeToDefaultChannels(user, 'admin-cli');
      return {
        user_id: user.id,
        email: user.deliveryEmail,
        role: user.role,
        api_key: apiKey,
        ...(channels.length > 0 ? { default_channels: channels } : {}),
      };
    }
    case 'reset-password':
      return usersGroups.resetPassword((await organization()).id, required(values, 'email'), required(values, 'password'));
    case 'api-key':
      return usersGroups.apiKey((await organization()).id, required(values, 'email'), values.rotate ?? false);
    case 'list-organizations':
      return usersGroups.listOrganizations();
    case 'create-channel': {
      const realm = await organization();
      const creator = await usersGroups.user(realm.id, required(values, 'creator-email'));
      const name = required(values, 'name');
      const others = (values.subscribe ?? '').split(',').map((e) => e.trim()).filter(Boolean);
      const channel = await services
        .messaging()
        .createChannel(realm.info, creator, { name, description: values.description, private: values.private ?? false, others }, 'admin-cli');
      if (!channel) throw new UsageError(`No channel named '${name.trim()}'`);
      return channel;
    }
    case 'import-realm': {
      if (positionals.length !== 1) throw new UsageError('import-realm takes one archive');
      return services.uploads().importRealm(positionals[0], values.subdomain);
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
  let usersGroups: UsersGroupsAdmin | undefined;
  let messaging: MessagingAdmin | undefined;
  let uploads: UploadsAdmin | undefined;
  try {
    const config: AppConfig = loadConfig();
    usersGroups = UsersGroupsAdmin.open(config);
    const result = await run(argv, {
      usersGroups,
      messaging: () => (messaging ??= MessagingAdmin.open(config)),
      uploads: () => (uploads ??= UploadsAdmin.open(config)),
    });
    print(result, argv.includes('--json'));
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof ZulipError || error instanceof ConfigError || error instanceof ImportError) {
      process.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await Promise.all([usersGroups?.close(), messaging?.close(), uploads?.close()]);
  }
}

main().then((code) => process.exit(code));

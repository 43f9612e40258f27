import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { apiSchema, emptyResponse, int } from '../api/api-schemas';
import { clientEventSchema, defineEvent } from '../event';

/**
 * Bots (zerver/views/users.py add_bot_backend, get_bots_backend, patch_bot_backend,
 * deactivate_bot_backend, regenerate_bot_api_key; zerver/actions/bots.py). Zulip's OpenAPI
 * document describes none of these endpoints; the conformance spec lists them as undocumented.
 */

/** Zulip's UserProfile bot types. */
export const BotType = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;
/** Zulip's Service interfaces: its own outgoing webhook format, and Slack's. */
export const ServiceInterface = { GENERIC: 1, SLACK: 2 } as const;

/** A JSON object of strings (Zulip's check_dict(value_validator=check_string)). */
const configData = z.record(z.string(), z.string());

export const addBotParams = {
  full_name: param.string(),
  short_name: param.string(),
  bot_type: param.int().default(BotType.GENERIC),
  /** JSON-encoded, as Zulip's check_url reads it. */
  payload_url: param.json(z.string()).default(''),
  service_name: param.string().optional(),
  config_data: param.json(configData).default({}),
  interface_type: param.int().default(ServiceInterface.GENERIC),
  default_sending_stream: param.string().optional(),
  default_events_register_stream: param.string().optional(),
  default_all_public_streams: param.bool().optional(),
};

export const addBot = defineApiCommand('users-groups', 'add_bot', {
  route: 'POST /bots',
  summary: 'Creates a bot owned by the caller (generic, incoming or outgoing webhook) and answers its id and API key.',
  params: addBotParams,
  response: z.object({
    user_id: int(),
    api_key: z.string(),
    avatar_url: z.string(),
    default_sending_stream: z.string().nullable(),
    default_events_register_stream: z.string().nullable(),
    default_all_public_streams: z.boolean(),
  }),
});

/** A bot as GET /bots lists it (its owner's view). */
export const ownedBotSchema = apiSchema(
  'OwnedBot',
  z.object({
    username: z.string(),
    full_name: z.string(),
    api_key: z.string(),
    avatar_url: z.string(),
    default_sending_stream: z.string().nullable(),
    default_events_register_stream: z.string().nullable(),
    default_all_public_streams: z.boolean(),
  }),
);

export const listBots = defineApiCommand('users-groups', 'list_bots', {
  route: 'GET /bots',
  summary: "The caller's own active bots, oldest first (administrators too see only their own here).",
  params: {},
  response: z.object({ bots: z.array(ownedBotSchema) }),
});

export const updateBotParams = {
  bot_id: param.int(),
  full_name: param.string().optional(),
  role: param.int().optional(),
  bot_owner_id: param.int().optional(),
  config_data: param.json(configData).optional(),
  service_payload_url: param.json(z.string()).optional(),
  service_interface: param.int().optional(),
  default_sending_stream: param.string().optional(),
  default_events_register_stream: param.string().optional(),
  default_all_public_streams: param.bool().optional(),
};

export const updateBot = defineApiCommand('users-groups', 'update_bot', {
  route: 'PATCH /bots/{bot_id}',
  summary: "Changes a bot the caller administers: name, owner, role, default channels, outgoing service, configuration.",
  params: updateBotParams,
  response: z.object({
    full_name: z.string(),
    avatar_url: z.string(),
    service_interface: int().nullable(),
    service_payload_url: z.string().nullable(),
    config_data: configData.nullable(),
    default_sending_stream: z.string().nullable(),
    default_events_register_stream: z.string().nullable(),
    default_all_public_streams: z.boolean(),
    /** The owner's address; absent for a bot without an owner. */
    bot_owner: z.string().optional(),
  }),
});

export const botIdParams = { bot_id: param.int() };

export const deactivateBot = defineApiCommand('users-groups', 'deactivate_bot', {
  route: 'DELETE /bots/{bot_id}',
  summary: 'Deactivates a bot the caller administers (POST /users/{user_id}/reactivate brings it back).',
  params: botIdParams,
  response: emptyResponse,
});

export const regenerateBotApiKey = defineApiCommand('users-groups', 'regenerate_bot_api_key', {
  route: 'POST /bots/{bot_id}/api_key/regenerate',
  summary: "Replaces the API key of a bot the caller administers; the old one is refused at once.",
  params: botIdParams,
  response: z.object({ api_key: z.string() }),
});

export const BotEvents = {
  /**
   * `realm_bot` add, update, delete events, to those who administer the bot: its owner and the
   * organization's administrators (only its owner when a default channel is private).
   */
  realmBotChanged: defineEvent('users-groups', 'realm_bot_changed', clientEventSchema),
};

/** An outgoing webhook bot's service as `realm_bots` and `realm_bot` events show it. */
export interface BotServiceRecord {
  base_url: string;
  interface: number;
  token: string;
}

export type OwnedBot = z.infer<typeof ownedBotSchema>;

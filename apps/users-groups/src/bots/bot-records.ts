import { Injectable } from '@nestjs/common';
import { BotType, UsersGroups, type ClientEvent, type EventDef, type BotServiceRecord } from '@teamchat/contracts';
import { avatarUrl } from '@teamchat/zulip';
import { BotsRepository, type BotDetailsRow } from '../data/bots.repository';
import { ChannelsReadonlyRepository } from '../data/channels.readonly.repository';
import type { Transaction } from '../data/transactions';
import type { PublishedEvent } from '../users/user-admin-events';

/** A bot as `realm_bots` lists it and `realm_bot` add events carry it (Zulip's get_owned_bot_dicts, created_bot_event). */
export interface RealmBotRecord {
  user_id: number;
  full_name: string;
  api_key: string;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
  avatar_url: string;
  owner_id: number | null;
  services: (BotServiceRecord | { config_data: Record<string, string>; service_name: string })[];
  email: string;
  bot_type: number | null;
  is_active: boolean;
}

/** Zulip's get_service_dicts_for_bot: an outgoing webhook bot's services; an embedded bot's configuration. */
export function serviceRecords(bot: BotDetailsRow): RealmBotRecord['services'] {
  if (bot.botType === BotType.OUTGOING_WEBHOOK) {
    return bot.botServices.map((service) => ({ base_url: service.baseUrl, interface: service.interface, token: service.token }));
  }
  if (bot.botType === BotType.EMBEDDED) {
    return bot.botServices.map((service) => ({ config_data: bot.botConfigData as Record<string, string>, service_name: service.name }));
  }
  return [];
}

/** Bots as their administrators see them, with their default channels' names. */
@Injectable()
export class BotRecords {
  constructor(
    private readonly bots: BotsRepository,
    private readonly channels: ChannelsReadonlyRepository,
  ) {}

  /** The organization's bots among `ids`, or those `ownerId` owns; deactivated ones included unless `activeOnly`. */
  async of(realmId: number, which: { ids?: number[]; ownerId?: number; activeOnly?: boolean }, tx?: Transaction): Promise<RealmBotRecord[]> {
    const bots = await this.bots.withDetails(realmId, which, tx);
    const channels = await this.channels.byIds(
      bots.flatMap((bot) => [bot.defaultSendingStreamId, bot.defaultEventsRegisterStreamId]).filter((id): id is number => id !== null),
      tx,
    );
    const nameOf = (id: number | null) => (id === null ? null : (channels.get(id)?.name ?? null));
    return bots.map((bot) => ({
      user_id: bot.id,
      full_name: bot.fullName,
      api_key: bot.apiKey?.key ?? '',
      default_sending_stream: nameOf(bot.defaultSendingStreamId),
      default_events_register_stream: nameOf(bot.defaultEventsRegisterStreamId),
      default_all_public_streams: bot.defaultAllPublicStreams,
      avatar_url: avatarUrl(bot, { realmId: bot.realmId })!,
      owner_id: bot.botOwnerId,
      services: serviceRecords(bot),
      // Bots' addresses are always shown (Zulip gives them EMAIL_ADDRESS_VISIBILITY_EVERYONE).
      email: bot.deliveryEmail,
      bot_type: bot.botType,
      is_active: bot.isActive,
    }));
  }

  async one(realmId: number, botId: number, tx?: Transaction): Promise<RealmBotRecord> {
    return (await this.of(realmId, { ids: [botId] }, tx))[0];
  }
}

/** A `realm_bot` event to the bot's administrators. */
export function realmBotEvent(realmId: number, users: number[], op: 'add' | 'update' | 'delete', bot: Record<string, unknown>): PublishedEvent {
  return {
    def: UsersGroups.BotEvents.realmBotChanged as EventDef<ClientEvent>,
    payload: { realmId, users, event: { type: 'realm_bot', op, bot } },
  };
}

/** Zulip's created_bot_event: the whole record, `owner_id` only when the bot has an owner. */
export function realmBotAdd(realmId: number, users: number[], record: RealmBotRecord): PublishedEvent {
  const { owner_id, ...rest } = record;
  return realmBotEvent(realmId, users, 'add', owner_id === null ? rest : { ...rest, owner_id });
}

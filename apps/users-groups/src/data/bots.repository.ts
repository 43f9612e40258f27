import { Injectable } from '@nestjs/common';
import { PgService, Prisma, PrismaService, columnsOf, isStoredId, statement, type UserModel } from '@teamchat/db';
import { onConnection, type Transaction } from './transactions';

/** An outgoing webhook bot's service (Zulip's Service). */
export interface BotServiceRow {
  id: number;
  name: string;
  baseUrl: string;
  token: string;
  interface: number;
}

/** A bot with what its administrators are shown: its key and its services (every column of each). */
export type BotDetailsRow = UserModel & { apiKey: { key: string } | null; botServices: (BotServiceRow & { userId: number })[] };

/**
 * The organization's bots, every column of `users`, each with its API key and its services in id
 * order, oldest first: only those among $2 unless it is null, only those $3 owns unless it is
 * null, only active ones when $4. One statement for what Prisma read in three (POST /register's
 * `realm_bots`, and every bot record).
 */
const botsWithDetails = statement<BotDetailsRow, [realmId: number, ids: number[] | null, ownerId: number | null, activeOnly: boolean]>(
  'users_groups.bots_with_details',
  `SELECT ${columnsOf(Prisma.UserScalarFieldEnum)},
     (SELECT json_build_object('key', k.key) FROM api_keys k WHERE k.user_id = u.id) AS "apiKey",
     COALESCE((SELECT json_agg(s ORDER BY s.id)
               FROM (SELECT ${columnsOf(Prisma.BotServiceScalarFieldEnum)} FROM bot_services WHERE user_id = u.id) s), '[]'::json) AS "botServices"
   FROM users u
   WHERE u.realm_id = $1 AND u.is_bot AND ($2::int[] IS NULL OR u.id = ANY($2::int[])) AND ($3::int IS NULL OR u.bot_owner_id = $3)
     AND (NOT $4::boolean OR u.is_active)
   ORDER BY u.date_joined, u.id`,
);

/** What a bot has beyond an ordinary account. */
export interface BotSetup {
  defaultSendingStreamId: number | null;
  defaultEventsRegisterStreamId: number | null;
  defaultAllPublicStreams: boolean;
  configData: Record<string, string>;
  service?: { name: string; baseUrl: string; token: string; interface: number };
}

export type BotDefaults = Partial<Pick<UserModel, 'defaultSendingStreamId' | 'defaultEventsRegisterStreamId' | 'defaultAllPublicStreams'>>;

/**
 * Bots' own columns of `users` (default channels, configuration) and `bot_services` (Prisma:
 * bots are administered rarely; their records, which POST /register lists, through pg).
 * Accounts themselves are UsersRepository's.
 */
@Injectable()
export class BotsRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  /** A new bot's defaults, configuration and service, inside the transaction that created it. */
  async setUp(botId: number, setup: BotSetup, tx: Transaction): Promise<void> {
    await tx.user.update({
      where: { id: botId },
      data: {
        defaultSendingStreamId: setup.defaultSendingStreamId,
        defaultEventsRegisterStreamId: setup.defaultEventsRegisterStreamId,
        defaultAllPublicStreams: setup.defaultAllPublicStreams,
        botConfigData: setup.configData,
      },
    });
    if (setup.service) await tx.botService.create({ data: { userId: botId, ...setup.service } });
  }

  /** The organization's bots among `ids`, or those `ownerId` owns (active ones only with `activeOnly`), oldest first. */
  withDetails(realmId: number, which: { ids?: number[]; ownerId?: number; activeOnly?: boolean }, tx?: Transaction): Promise<BotDetailsRow[]> {
    // Inside a Prisma transaction, on its connection (it may have just written the bot).
    return (tx ? onConnection(tx) : this.pg).run(
      botsWithDetails,
      realmId,
      which.ids ? which.ids.filter(isStoredId) : null,
      which.ownerId ?? null,
      which.activeOnly === true,
    );
  }

  async setDefaults(botId: number, defaults: BotDefaults, tx: Transaction): Promise<void> {
    await tx.user.update({ where: { id: botId }, data: defaults });
  }

  /** Changes the bot's (first) service; the service as now stored, or null when nothing changed or it has none. */
  async updateService(botId: number, change: { baseUrl?: string; interface?: number }, tx: Transaction): Promise<BotServiceRow | null> {
    const service = await tx.botService.findFirst({ where: { userId: botId }, orderBy: { id: 'asc' } });
    if (!service) return null;
    const data: { baseUrl?: string; interface?: number } = {};
    if (change.baseUrl !== undefined && change.baseUrl !== service.baseUrl) data.baseUrl = change.baseUrl;
    if (change.interface !== undefined && change.interface !== service.interface) data.interface = change.interface;
    if (Object.keys(data).length === 0) return null;
    return tx.botService.update({ where: { id: service.id }, data });
  }

  /**
   * Sets these configuration keys (others kept); the whole configuration after. The caller's
   * transaction holds the bot's row lock (UsersRepository.lock), so no other merge interleaves.
   */
  async mergeConfigData(botId: number, data: Record<string, string>, tx: Transaction): Promise<Record<string, string>> {
    const row = await tx.user.findUniqueOrThrow({ where: { id: botId }, select: { botConfigData: true } });
    const merged = { ...(row.botConfigData as Record<string, string>), ...data };
    await tx.user.update({ where: { id: botId }, data: { botConfigData: merged } });
    return merged;
  }
}

import { Injectable } from '@nestjs/common';
import { PrismaService, isStoredId, type Prisma, type UserModel } from '@teamchat/db';
import type { Transaction } from './transactions';

/** An outgoing webhook bot's service (Zulip's Service). */
export interface BotServiceRow {
  id: number;
  name: string;
  baseUrl: string;
  token: string;
  interface: number;
}

/** A bot with what its administrators are shown: its key and its services. */
export type BotDetailsRow = UserModel & { apiKey: { key: string } | null; botServices: BotServiceRow[] };

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
 * bots are administered rarely). Accounts themselves are UsersRepository's.
 */
@Injectable()
export class BotsRepository {
  constructor(private readonly prisma: PrismaService) {}

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
  withDetails(realmId: number, which: { ids?: number[]; ownerId?: number; activeOnly?: boolean }, tx: Transaction = this.prisma): Promise<BotDetailsRow[]> {
    const where: Prisma.UserWhereInput = { realmId, isBot: true };
    if (which.ids) where.id = { in: which.ids.filter(isStoredId) };
    if (which.ownerId !== undefined) where.botOwnerId = which.ownerId;
    if (which.activeOnly) where.isActive = true;
    return tx.user.findMany({
      where,
      include: { apiKey: { select: { key: true } }, botServices: { orderBy: { id: 'asc' } } },
      orderBy: [{ dateJoined: 'asc' }, { id: 'asc' }],
    });
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

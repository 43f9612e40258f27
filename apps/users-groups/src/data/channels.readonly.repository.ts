import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, channelIdsNamed, isStoredId, statement } from '@teamchat/db';
import { onConnection, type Transaction } from './transactions';

/** A channel as a bot's default channels need it. */
export interface ChannelForBot {
  id: number;
  name: string;
  inviteOnly: boolean;
}

/** These channels by id (bots' default channels, in every bot record POST /register lists). */
const channelsByIds = statement<ChannelForBot, [ids: number[]]>(
  'users_groups.channels_by_ids',
  `SELECT id, name, invite_only AS "inviteOnly" FROM streams WHERE id = ANY($1::int[])`,
);

/**
 * READ-ONLY: messaging's `streams` and `subscriptions`, for bots' default channels (Zulip's
 * access_stream_by_name when a bot is created or changed, and the channels' names its records
 * show). Users-groups never writes them.
 */
@Injectable()
export class ChannelsReadonlyRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  /** The organization's unarchived channel with this name, whatever its case. */
  async byName(realmId: number, name: string): Promise<ChannelForBot | null> {
    const [id] = await channelIdsNamed(this.prisma, realmId, [name]);
    if (id === undefined) return null;
    return this.prisma.stream.findUnique({ where: { id }, select: { id: true, name: true, inviteOnly: true } });
  }

  /** Whether the user has an active subscription to the channel. */
  async isSubscribed(userId: number, channelId: number): Promise<boolean> {
    const row = await this.prisma.subscription.findFirst({ where: { userId, streamId: channelId, active: true }, select: { userId: true } });
    return row !== null;
  }

  /** These channels by id (unknown ids are left out), through pg (inside a Prisma transaction, on its connection). */
  async byIds(ids: number[], tx?: Transaction): Promise<Map<number, ChannelForBot>> {
    const wanted = [...new Set(ids.filter(isStoredId))];
    if (wanted.length === 0) return new Map();
    const rows = await (tx ? onConnection(tx) : this.pg).run(channelsByIds, wanted);
    return new Map(rows.map((row) => [row.id, row]));
  }
}

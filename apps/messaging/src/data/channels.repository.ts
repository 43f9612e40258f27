import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, channelIdsNamed, isStoredId, queryableOf, type Prisma, type StreamModel } from '@teamchat/db';
import {
  channelByIdForUser,
  channelByNameForUser,
  channelIdInRealm,
  channelNames,
  channelSendContextById,
  channelSendContextByName,
  defaultChannelIds,
  lowerFirstMessageId,
  recomputeFirstMessageId,
  type ChannelSendContextRow,
  type ChannelWithSubscriptionRow,
} from './channels.sql';
import type { ColdTx, Tx } from './transactions';

export type { ChannelSendContextRow, ChannelWithSubscriptionRow } from './channels.sql';

/** A new channel's row: its columns (unset permission groups are left to the database's defaults). */
export type NewChannelRow = Prisma.StreamUncheckedCreateInput;

/** A channel with the caller's active subscription, if any (`subscriptions` holds it or is empty). */
export type ChannelWithCallerSubscription = StreamModel & { subscriptions: { id: number }[] };

/** `streams`, which messaging owns: channels, read with the caller's subscription on the hot paths. */
@Injectable()
export class ChannelsRepository {
  constructor(
    private readonly pg: PgService,
    private readonly prisma: PrismaService,
  ) {}

  /** Whether an unarchived channel of the organization has this id, or this name whatever its case. */
  async exists(realmId: number, target: { id: number } | { name: string }): Promise<boolean> {
    if ('id' in target) return isStoredId(target.id) && (await this.prisma.stream.count({ where: { id: target.id, realmId, isArchived: false } })) > 0;
    return (await channelIdsNamed(this.prisma, realmId, [target.name])).length > 0;
  }

  /** The organization's default channels, in id order (as `tx`, if given, sees them; see defaultChannelIds). */
  async defaultIds(realmId: number, tx?: ColdTx): Promise<number[]> {
    return (await (tx ? queryableOf(tx) : this.pg).run(defaultChannelIds, realmId)).map((row) => row.id);
  }

  /** Ids of the organization's channels named one of `names`, whatever the case; archived ones only when asked. */
  idsNamed(realmId: number, names: readonly string[], includeArchived = false): Promise<number[]> {
    return channelIdsNamed(this.prisma, realmId, names, includeArchived);
  }

  /** The organization's channel with this id, archived or not; null if none. */
  findInRealm(streamId: number, realmId: number): Promise<StreamModel | null> {
    return this.prisma.stream.findFirst({ where: { id: streamId, realmId } });
  }

  /** These channels (of the organization when `realmId` is given), each with the user's active subscription if any. */
  withCallerSubscription(realmId: number | null, streamIds: number[], userId: number): Promise<ChannelWithCallerSubscription[]> {
    return this.prisma.stream.findMany({
      where: { ...(realmId !== null ? { realmId } : {}), id: { in: streamIds } },
      include: { subscriptions: { where: { userId, active: true }, select: { id: true } } },
    });
  }

  /** The names and descriptions of these channels, in id order. */
  namesAndDescriptions(streamIds: number[]): Promise<{ name: string; description: string }[]> {
    return this.prisma.stream.findMany({ where: { id: { in: streamIds } }, select: { name: true, description: true }, orderBy: { id: 'asc' } });
  }

  /** Creates a channel (nobody subscribed yet: `subscriptions` is empty). Fails on the unique name index if the name is taken. */
  create(row: NewChannelRow, tx: ColdTx): Promise<ChannelWithCallerSubscription> {
    return tx.stream.create({ data: row, include: { subscriptions: { where: { id: -1 }, select: { id: true } } } });
  }

  /** Changes a channel's columns; the channel as it is then. */
  update(streamId: number, changes: Partial<StreamModel>, tx: ColdTx = this.prisma): Promise<StreamModel> {
    return tx.stream.update({ where: { id: streamId }, data: changes });
  }

  /** How many channels, archived ones too, are in the folder. */
  countInFolder(folderId: number, tx: ColdTx = this.prisma): Promise<number> {
    return tx.stream.count({ where: { folderId } });
  }

  /** Makes a channel default or not; false when it already was (or was not). */
  async setDefault(streamId: number, isDefault: boolean, tx: ColdTx = this.prisma): Promise<boolean> {
    return (await tx.stream.updateMany({ where: { id: streamId, isDefault: !isDefault }, data: { isDefault } })).count > 0;
  }

  /** Archives a channel (its messages and subscriptions stay). */
  async archive(streamId: number, tx: ColdTx = this.prisma): Promise<void> {
    await tx.stream.update({ where: { id: streamId }, data: { isArchived: true } });
  }

  /** The token of a channel's email address. */
  async emailToken(streamId: number): Promise<string> {
    return (await this.prisma.stream.findUniqueOrThrow({ where: { id: streamId }, select: { emailToken: true } })).emailToken;
  }

  /** The organization's channels in id order (archived ones too unless excluded), each with whether the user is subscribed. */
  async allWithSubscribed(realmId: number, userId: number, excludeArchived: boolean): Promise<(StreamModel & { subscribed: boolean })[]> {
    const channels = await this.prisma.stream.findMany({
      where: { realmId, ...(excludeArchived ? { isArchived: false } : {}) },
      include: { subscriptions: { where: { userId, active: true }, select: { id: true } } },
      orderBy: { id: 'asc' },
    });
    return channels.map(({ subscriptions, ...channel }) => ({ ...channel, subscribed: subscriptions.length > 0 }));
  }

  /** An unarchived channel of the organization by id, with the user's subscription row if any. */
  async byIdForUser(streamId: number, realmId: number, userId: number): Promise<ChannelWithSubscriptionRow | null> {
    return (await this.pg.run(channelByIdForUser, streamId, realmId, userId))[0] ?? null;
  }

  /** The same, by name whatever its case. */
  async byNameForUser(name: string, realmId: number, userId: number): Promise<ChannelWithSubscriptionRow | null> {
    return (await this.pg.run(channelByNameForUser, name, realmId, userId))[0] ?? null;
  }

  /** Everything sending to a channel (by id) reads, in one statement. */
  async sendContextById(streamId: number, realmId: number, userId: number): Promise<ChannelSendContextRow | null> {
    return (await this.pg.run(channelSendContextById, streamId, realmId, userId))[0] ?? null;
  }

  /** The same, the channel named whatever its case. */
  async sendContextByName(name: string, realmId: number, userId: number): Promise<ChannelSendContextRow | null> {
    return (await this.pg.run(channelSendContextByName, name, realmId, userId))[0] ?? null;
  }

  /**
   * The channels of these names (any case) a message by the user may link to: public ones and
   * those the user is subscribed to, archived ones left out.
   */
  async linkable(realmId: number, userId: number | undefined, names: string[]): Promise<{ id: number; name: string }[]> {
    if (names.length === 0) return [];
    // Compared as names are (lower(x) = lower($1), channelIdsNamed): never ILIKE, where a
    // message's `_` or `%` would be a wildcard.
    const ids = await channelIdsNamed(this.prisma, realmId, names.map((name) => name.trim()));
    if (ids.length === 0) return [];
    return this.prisma.stream.findMany({
      where: {
        id: { in: ids },
        AND: { OR: [{ inviteOnly: false }, ...(userId === undefined ? [] : [{ subscriptions: { some: { userId, active: true } } }])] },
      },
      select: { id: true, name: true },
    });
  }

  /** Channel names by id. */
  async names(streamIds: number[]): Promise<{ id: number; name: string }[]> {
    return streamIds.length === 0 ? [] : this.pg.run(channelNames, streamIds);
  }

  /** Whether the channel is the organization's, archived or not. */
  async existsInRealm(streamId: number, realmId: number): Promise<boolean> {
    return (await this.pg.run(channelIdInRealm, streamId, realmId)).length > 0;
  }

  /** Messages moved in: the channel's first message becomes `candidate` if it is earlier; the new one, if it moved. */
  async lowerFirstMessageId(streamId: number, candidate: number, tx: Tx): Promise<{ firstMessageId: number } | undefined> {
    return (await tx.run(lowerFirstMessageId, streamId, candidate))[0];
  }

  /** Messages moved out: the channel's first message, if it was one of them, becomes its oldest remaining one. */
  async recomputeFirstMessageId(streamId: number, movedIds: number[], tx: Tx): Promise<{ firstMessageId: number | null } | undefined> {
    return (await tx.run(recomputeFirstMessageId, streamId, movedIds))[0];
  }
}

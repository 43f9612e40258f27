import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, channelIdsNamed, isStoredId } from '@teamchat/db';
import {
  channelByIdForUser,
  channelByNameForUser,
  channelIdInRealm,
  channelNames,
  channelSendContextById,
  channelSendContextByName,
  lowerFirstMessageId,
  recomputeFirstMessageId,
  type ChannelSendContextRow,
  type ChannelWithSubscriptionRow,
} from './channels.sql';
import type { Tx } from './transactions';

export type { ChannelSendContextRow, ChannelWithSubscriptionRow } from './channels.sql';

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

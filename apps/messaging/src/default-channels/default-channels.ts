import { Messaging } from '@teamchat/contracts';
import type { Prisma, PrismaService } from '@teamchat/db';
import type { DirectoryUser } from '../data/users.readonly.repository';
import type { PendingEvent } from '../channels/channel-events';

/**
 * The organization's default channels, in id order: flagged ones still public and not archived
 * (a default channel made private or archived stops being one, as in Zulip).
 */
export async function defaultChannelIds(db: PrismaService | Prisma.TransactionClient, realmId: number): Promise<number[]> {
  const rows = await db.stream.findMany({
    where: { realmId, isDefault: true, inviteOnly: false, isArchived: false },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return rows.map((row) => row.id);
}

/** `default_streams`: every default channel's id, to every active user of the organization. */
export const defaultChannelsEvent = (realmId: number, audience: DirectoryUser[], ids: number[]): PendingEvent => ({
  def: Messaging.DefaultChannelEvents.defaultChannelsChanged,
  payload: { realmId, users: audience.map((user) => user.id), event: { type: 'default_streams', default_streams: ids } },
});

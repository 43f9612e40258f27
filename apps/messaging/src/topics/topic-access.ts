import type { AuthUser } from '@teamchat/contracts';
import { badRequest } from '@teamchat/zulip';
import { ChannelAccess, firstVisibleMessageId, type AccessibleChannel } from '../core/channel-access';

export interface ReadableChannel {
  access: AccessibleChannel;
  /** See `visibleTo`: null when the caller may see the channel's whole history. */
  visibleFrom: number | null;
}

/**
 * The channel a topic request names, if the caller may read it (Zulip's access_stream_by_id):
 * unknown, archived, other-organization and inaccessible private channels are all
 * `Invalid channel ID`.
 */
export async function readableChannel(
  channels: ChannelAccess,
  realmId: number,
  user: Pick<AuthUser, 'id' | 'role'>,
  streamId: number,
): Promise<ReadableChannel> {
  const access = await channels.readable(realmId, user, streamId);
  if (!access) throw badRequest('Invalid channel ID');
  const first = firstVisibleMessageId(access);
  return { access, visibleFrom: first > 0 ? first : null };
}

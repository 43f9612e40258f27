import { Messaging } from '@teamchat/contracts';
import type { DirectoryUser } from '../data/users.readonly.repository';
import type { PendingEvent } from '../channels/channel-events';

/** `default_streams`: every default channel's id, to every active user of the organization. */
export const defaultChannelsEvent = (realmId: number, audience: DirectoryUser[], ids: number[]): PendingEvent => ({
  def: Messaging.DefaultChannelEvents.defaultChannelsChanged,
  payload: { realmId, users: audience.map((user) => user.id), event: { type: 'default_streams', default_streams: ids } },
});

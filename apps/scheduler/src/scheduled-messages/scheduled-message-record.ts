import type { Scheduler } from '@teamchat/contracts';
import type { StoredScheduledMessage } from '../data/scheduled-messages.repository';

/**
 * A scheduled message as clients see it (Zulip's ScheduledMessage.to_dict): a channel's ID, or
 * the other participants (the sender alone when it is to themselves); the topic for channels only.
 */
export function toScheduledMessageRecord(stored: StoredScheduledMessage): Scheduler.ScheduledMessageRecord {
  const others = stored.recipientIds.filter((id) => id !== stored.senderId);
  return {
    scheduled_message_id: stored.id,
    type: stored.type === 'stream' ? 'stream' : 'private',
    to: stored.type === 'stream' ? stored.streamId! : others.length > 0 ? others : [stored.senderId],
    ...(stored.type === 'stream' ? { topic: stored.topic } : {}),
    content: stored.content,
    rendered_content: stored.renderedContent,
    scheduled_delivery_timestamp: Math.floor(stored.scheduledAt.getTime() / 1000),
    failed: stored.failed,
  };
}

/** `to` as messaging's send takes it back: the channel ID, or every other participant. */
export function sendTargetOf(stored: StoredScheduledMessage): string {
  const record = toScheduledMessageRecord(stored);
  return JSON.stringify(record.to);
}

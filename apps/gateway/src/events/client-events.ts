import type { ClientEvent, Messaging } from '@teamchat/contracts';
import { EMPTY_TOPIC_DISPLAY_NAME } from '@teamchat/zulip';
import type { Delivery } from './event-queue.store';
import { matchesNarrow, type NarrowedMessage } from './message-narrow';
import type { QueueDescriptor } from './queue-descriptor';

/** Zulip's accepts_event, for the event kinds every recipient sees alike. */
export function accepts(queue: QueueDescriptor, event: ClientEvent['event']): boolean {
  if (queue.eventTypes !== null && !queue.eventTypes.includes(event.type)) return false;
  if (event.type === 'typing' && event.message_type === 'stream' && !queue.capabilities.stream_typing_notifications) return false;
  // Linkifiers hold URL templates, which only clients with this capability read (Zulip's accepts_event).
  if (event.type === 'realm_linkifiers' && !queue.capabilities.linkifier_url_template) return false;
  return true;
}

/**
 * One event for the users' queues that accept it. `group` is the full record of a user group
 * being reactivated (for queues that were told it was removed).
 */
export function deliveriesOf(event: ClientEvent['event'], queues: QueueDescriptor[], group?: unknown): Delivery[] {
  // A new person shown as "Unknown user" to the guests who may not see them (users-groups marks
  // it): a client with `user_list_incomplete` is sent nothing, the others the event without the
  // mark (Zulip's process_realm_user_add_event).
  const inaccessible = event.type === 'realm_user' && event.op === 'add' && event.inaccessible_user === true;
  const text = JSON.stringify(inaccessible ? { ...event, inaccessible_user: undefined } : event);
  const oneByOne = event.type === 'delete_message' && Array.isArray(event.message_ids) ? unbulked(event) : undefined;
  const withoutDeactivatedGroups = event.type === 'user_group' ? deactivationAsSeenWithout(event, group) : undefined;
  const presence = event.type === 'presence' ? presenceFormats(event) : undefined;
  return queues
    .filter((queue) => accepts(queue, event) && !(inaccessible && queue.capabilities.user_list_incomplete))
    .flatMap((queue) => {
      if (oneByOne && !queue.capabilities.bulk_message_deletion) return oneByOne.map((single) => ({ queueId: queue.queueId, event: single }));
      if (withoutDeactivatedGroups && !queue.capabilities.include_deactivated_groups) {
        return [{ queueId: queue.queueId, event: withoutDeactivatedGroups }];
      }
      if (presence) return [{ queueId: queue.queueId, event: queue.capabilities.simplified_presence_events ? presence.modern : presence.legacy }];
      return [{ queueId: queue.queueId, event: text }];
    });
}

/**
 * A `presence` event carries both formats; a queue with the `simplified_presence_events`
 * capability gets `{ type, presences }`, any other the legacy `user_id`, `email`,
 * `server_timestamp` and `presence` (Zulip's process_presence_event).
 */
function presenceFormats(event: ClientEvent['event']): { modern: string; legacy: string } {
  const { presences, ...legacy } = event;
  return { modern: JSON.stringify({ type: 'presence', presences }), legacy: JSON.stringify(legacy) };
}

/**
 * A group's deactivation or reactivation as clients without the `include_deactivated_groups`
 * capability see it (Zulip's user_group events): the group is removed, or added again.
 */
function deactivationAsSeenWithout(event: ClientEvent['event'], group: unknown): string | undefined {
  if (event.op !== 'update') return undefined;
  const deactivated = (event.data as { deactivated?: boolean } | undefined)?.deactivated;
  if (deactivated === true) return JSON.stringify({ type: 'user_group', op: 'remove', group_id: event.group_id });
  if (deactivated === false && group) return JSON.stringify({ type: 'user_group', op: 'add', group });
  return undefined;
}

/**
 * `delete_message` as clients without the `bulk_message_deletion` capability read it: one event
 * per message, its id as `message_id` (Zulip's tornado/event_queue.py does the same split).
 */
function unbulked(event: ClientEvent['event']): string[] {
  const { message_ids: ids, ...rest } = event as ClientEvent['event'] & { message_ids: number[] };
  return ids.map((id) => JSON.stringify({ ...rest, message_id: id }));
}

/**
 * A new message, shaped for each queue: Markdown or HTML (apply_markdown), the Gravatar rule
 * (client_gravatar), the empty topic's display name for clients without `empty_topic_name`,
 * the recipient's own flags, the queue's narrow, and `local_message_id` for the queue the
 * sender named (as `local_message_id` and `local_id`). The message text is serialised once per variant, not once per queue.
 */
export function messageDeliveries(sent: Messaging.MessageSent, queuesByUser: Map<number, QueueDescriptor[]>): Delivery[] {
  const variants = new Map<string, string>();
  const events = new Map<string, string>();
  const variantOf = (queue: QueueDescriptor): string =>
    `${queue.applyMarkdown}|${queue.clientGravatar && sent.senderGravatar === true}|${queue.capabilities.empty_topic_name === true}`;
  const messageJson = (queue: QueueDescriptor): string => {
    const emptyTopicName = queue.capabilities.empty_topic_name === true;
    const key = variantOf(queue);
    let json = variants.get(key);
    if (json === undefined) {
      const { raw_content: raw, ...message } = sent.message;
      if (!queue.applyMarkdown) Object.assign(message, { content: raw, content_type: 'text/x-markdown' });
      if (queue.clientGravatar && sent.senderGravatar === true) message.avatar_url = null;
      if (!emptyTopicName && message.type === 'stream' && message.subject === '') message.subject = EMPTY_TOPIC_DISPLAY_NAME;
      json = JSON.stringify(message);
      variants.set(key, json);
    }
    return json;
  };

  const deliveries: Delivery[] = [];
  for (const recipient of sent.recipients) {
    for (const queue of queuesByUser.get(recipient.id) ?? []) {
      if (queue.eventTypes !== null && !queue.eventTypes.includes('message')) continue;
      if (queue.narrow.length > 0 && !matchesNarrow({ ...(sent.message as unknown as NarrowedMessage), flags: recipient.flags }, queue.narrow)) {
        continue;
      }
      // Zulip's servers send `local_message_id`, which Zulip's clients read; the interface and the
      // reference API description name it `local_id`. Both, so either kind of client finds it.
      const sendersQueue = sent.senderQueue !== undefined && sent.senderQueue.queueId === queue.queueId && sent.senderQueue.userId === queue.userId;
      const message = messageJson(queue);
      const flags = recipient.flags.length === 0 ? '[]' : JSON.stringify(recipient.flags);
      // Recipients alike share one text (the same string, which the append sends once).
      const key = sendersQueue ? undefined : `${variantOf(queue)}|${flags}`;
      let event = key === undefined ? undefined : events.get(key);
      if (event === undefined) {
        const localId = JSON.stringify(sent.senderQueue?.localId);
        const local = sendersQueue ? `,"local_message_id":${localId},"local_id":${localId}` : '';
        event = `{"type":"message","message":${message},"flags":${flags}${local}}`;
        if (key !== undefined) events.set(key, event);
      }
      deliveries.push({ queueId: queue.queueId, event });
    }
  }
  return deliveries;
}

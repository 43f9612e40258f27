import { MessagingEvents, type ClientEvent, type EventDef } from '@teamchat/contracts';

/** An event written to the outbox with the change it announces, published once that has committed. */
export interface OutgoingEvent {
  def: EventDef<never>;
  payload: ClientEvent;
}

// The outbox takes any event definition; the payload's type is checked here instead.
export const outgoing = (def: EventDef<ClientEvent>, payload: ClientEvent): OutgoingEvent => ({
  def: def as unknown as EventDef<never>,
  payload,
});

/** `delete_message` for messages of one conversation (the bulk form: every id in one event; the fan-out splits it for old clients). */
export const messagesDeletedEvent = (
  realmId: number,
  users: number[],
  deleted: { messageIds: number[]; streamId: number | null; topic: string },
): OutgoingEvent =>
  outgoing(MessagingEvents.messagesDeleted, {
    realmId,
    users,
    event: {
      type: 'delete_message',
      message_ids: deleted.messageIds,
      ...(deleted.streamId !== null
        ? { message_type: 'stream', stream_id: deleted.streamId, topic: deleted.topic }
        : { message_type: 'private' }),
    },
  });

import { PresenceEvents, type ClientEvent, type EventDef } from '@teamchat/contracts';
import { EMPTY_TOPIC_DISPLAY_NAME } from '@teamchat/zulip';
import type { Person } from '../core/person';

/**
 * Zulip's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS: channels with more subscribers get no
 * typing notifications at all.
 */
export const MAX_CHANNEL_SIZE_FOR_TYPING = 100;

export type TypingOp = 'start' | 'stop';

/** `{user_id, email}` as typing events show a person. */
const shown = (person: Person) => ({ user_id: person.id, email: person.email });

/**
 * Who hears of someone typing: the active people among the conversation's that receive typing
 * notifications, never the one typing.
 */
export function typingAudience(people: Iterable<Person>, senderId: number): number[] {
  const ids = new Set<number>();
  for (const person of people) {
    if (person.id !== senderId && person.isActive && person.settings.receives_typing_notifications) ids.add(person.id);
  }
  return [...ids].sort((a, b) => a - b);
}

/**
 * Who hears of someone editing a message (Zulip's do_send_*_message_edit_typing_notification):
 * the active people among those who would see the edit that receive typing notifications, the
 * one editing included.
 */
export function editTypingAudience(people: Iterable<Person>): number[] {
  const ids = new Set<number>();
  for (const person of people) if (person.isActive && person.settings.receives_typing_notifications) ids.add(person.id);
  return [...ids].sort((a, b) => a - b);
}

/**
 * The people a direct typing notification names, in Zulip's order: those given, once each,
 * then the sender when they were not among them.
 */
export function directParticipants(to: readonly number[], senderId: number): number[] {
  return [...new Set([...to, senderId])];
}

/** A channel typing notification's topic: `(no topic)` and the empty topic's display name mean "". */
export function typingTopic(topic: string): string {
  return topic === '(no topic)' || topic === EMPTY_TOPIC_DISPLAY_NAME ? '' : topic;
}

export function directTypingEvent(op: TypingOp, sender: Person, participants: readonly Person[]): Record<string, unknown> & { type: string } {
  return { type: 'typing', op, message_type: 'direct', sender: shown(sender), recipients: participants.map(shown) };
}

export function channelTypingEvent(op: TypingOp, sender: Person, streamId: number, topic: string): Record<string, unknown> & { type: string } {
  return { type: 'typing', op, message_type: 'stream', sender: shown(sender), stream_id: streamId, topic };
}

/** The domain event for `users`, ready for EventBus.publishAll; none when nobody is to hear it. */
export function typingEvents(realmId: number, users: number[], event: ClientEvent['event']): { def: EventDef<ClientEvent>; payload: ClientEvent }[] {
  return users.length > 0 ? [{ def: PresenceEvents.typing, payload: { realmId, users, event } }] : [];
}

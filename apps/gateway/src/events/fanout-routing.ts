import { Injectable } from '@nestjs/common';
import { MessagingEvents, SUBJECT_PREFIX, UsersGroups, UsersGroupsEvents, clientEventSchema, type ClientEvent, type Messaging } from '@teamchat/contracts';
import { SpanKind, extractNats, inSpan, traceparentOf, tracing } from '@teamchat/platform';
import type { JsMsg } from 'nats';
import { Sessions } from '../auth/sessions';
import { deliveriesOf, messageDeliveries } from './client-events';
import { EventQueueStore, type Delivery, type IndexVersion } from './event-queue.store';
import { MessageNotificationsQueue } from './notifications/message-notifications.queue';
import { happenedAfterRegistration, type QueueDescriptor } from './queue-descriptor';

const USER_GROUP_CHANGED = UsersGroupsEvents.userGroupChanged.subject.slice(SUBJECT_PREFIX.length);
const USER_ACCESS_CHANGED = UsersGroups.UserAdministrationEvents.userAccessChanged.subject.slice(SUBJECT_PREFIX.length);
const MESSAGE_SENT = MessagingEvents.messageSent.subject.slice(SUBJECT_PREFIX.length);

/** The key of a stored client event that carries the fan-out's trace context (tracing on only). */
export const TRACE_KEY = '_tp';

/**
 * What one domain event becomes: the client event each recipient queue gets, the index version
 * the queues were read at from memory (the append checks it), and what to do once appended.
 */
export interface Routed {
  deliveries: Delivery[];
  index?: IndexVersion;
  /** Called once the deliveries are appended (not when the append fails, to be retried). */
  appended?: () => void;
}

const NOTHING: Routed = { deliveries: [] };

/**
 * What one domain event becomes in the client event queues: the recipients' queues (from the
 * organization's index in Redis, or the fan-out's copy of it) and the client event each of them
 * gets. Throws a ZodError or SyntaxError for an event that can never be delivered.
 */
@Injectable()
export class FanoutRouting {
  constructor(
    private readonly store: EventQueueStore,
    private readonly sessions: Sessions,
    private readonly notifications: MessageNotificationsQueue,
  ) {}

  route(message: JsMsg): Promise<Routed> {
    return tracing.enabled ? this.tracedRoute(message) : this.untracedRoute(message);
  }

  /**
   * With tracing on: each event's fan-out as a CONSUMER span continuing the publisher's trace,
   * and each client event stored with that span's context (`_tp`), which the long-poll that
   * hands it over takes off again to trace the delivery (see LongPoll).
   */
  private tracedRoute(message: JsMsg): Promise<Routed> {
    return inSpan(
      `fanout ${message.subject}`,
      { kind: SpanKind.CONSUMER, parent: extractNats(message.headers), attributes: { 'messaging.system': 'nats', 'messaging.destination.name': message.subject } },
      async (span) => {
        const traceparent = traceparentOf();
        const routed = await this.untracedRoute(message);
        const deliveries = routed.deliveries.map((d) => ({ queueId: d.queueId, event: `{"${TRACE_KEY}":"${traceparent}",${d.event.slice(1)}` }));
        span.setAttribute('teamchat.deliveries', deliveries.length);
        return { ...routed, deliveries };
      },
    );
  }

  private untracedRoute(message: JsMsg): Promise<Routed> {
    const payload: unknown = JSON.parse(Buffer.from(message.data).toString('utf8'));
    const at = { seq: message.seq, timeMs: Math.floor(message.info.timestampNanos / 1e6) };
    return this.routeEvent(message.subject.slice(SUBJECT_PREFIX.length), payload, (queue) => happenedAfterRegistration(queue, at.seq, at.timeMs));
  }

  /** `reaches`: whether the event is news to a queue (it was registered before the event). */
  private async routeEvent(subject: string, payload: unknown, reaches: (queue: QueueDescriptor) => boolean): Promise<Routed> {
    if (subject === MESSAGE_SENT) {
      const sent = MessagingEvents.messageSent.payload.parse(payload);
      const { queues, publicQueueIds, index } = await this.queuesOf(
        sent.realmId,
        sent.recipients.map((recipient) => recipient.id),
        reaches,
        sent.publicChannel === true,
      );
      const widened = this.withAllPublicStreamsQueues(sent, queues, await this.store.descriptorsOf(sent.realmId, publicQueueIds), reaches);
      // Notifications: who is off the app is known here (see notifications/), told once delivered.
      return { deliveries: messageDeliveries(widened, queues), index, appended: () => this.notifications.messageDelivered(sent, queues) };
    }
    if (subject === USER_ACCESS_CHANGED) {
      // Not a client event: a deactivated user's queues and browser sessions go (every replica drops cached credentials itself).
      const change = UsersGroups.userAccessChangedSchema.parse(payload);
      if (change.deactivated) await Promise.all([this.store.deleteQueuesOf(change.realmId, change.userId), this.sessions.endAllOf(change.userId)]);
      return NOTHING;
    }
    const parsed = (subject === USER_GROUP_CHANGED ? UsersGroupsEvents.userGroupChanged.payload : clientEventSchema).safeParse(payload);
    if (!parsed.success) return NOTHING; // not a client-facing event
    const { realmId, users, event, group }: ClientEvent & { group?: unknown } = parsed.data;
    const { queues, index } = await this.queuesOf(realmId, users, reaches, false);
    return { deliveries: deliveriesOf(event, [...queues.values()].flat(), group), index };
  }

  /**
   * A public channel's message also goes to the organization's all_public_streams queues (Zulip's
   * realm-wide clients): their owners who are not recipients join with no flags, and only those
   * queues of theirs. Adds to `queues` and returns the widened event.
   */
  private withAllPublicStreamsQueues(
    sent: Messaging.MessageSent,
    queues: Map<number, QueueDescriptor[]>,
    publicQueues: Map<string, QueueDescriptor>,
    reaches: (queue: QueueDescriptor) => boolean,
  ): Messaging.MessageSent {
    if (publicQueues.size === 0) return sent;
    const recipients = new Set(sent.recipients.map((recipient) => recipient.id));
    const added: Messaging.MessageSent['recipients'] = [];
    for (const queue of publicQueues.values()) {
      if (queue.realmId !== sent.realmId || recipients.has(queue.userId) || !reaches(queue)) continue;
      const own = queues.get(queue.userId);
      if (own) own.push(queue);
      else {
        queues.set(queue.userId, [queue]);
        added.push({ id: queue.userId, flags: [] });
      }
    }
    return { ...sent, recipients: [...sent.recipients, ...added] };
  }

  /** The users' queues the event reaches, by user, and (with `withPublic`) the organization's all_public_streams queues. */
  private async queuesOf(
    realmId: number,
    userIds: number[],
    reaches: (queue: QueueDescriptor) => boolean,
    withPublic: boolean,
  ): Promise<{ queues: Map<number, QueueDescriptor[]>; publicQueueIds: string[]; index?: IndexVersion }> {
    const read = await this.store.routeIndex(realmId, userIds, withPublic);
    const descriptors = await this.store.descriptorsOf(realmId, [...read.queues.values()].flat());
    const queues = new Map<number, QueueDescriptor[]>();
    for (const [userId, queueIds] of read.queues) {
      const found = queueIds.map((id) => descriptors.get(id)).filter((d): d is QueueDescriptor => d !== undefined && d.realmId === realmId && reaches(d));
      if (found.length > 0) queues.set(userId, found);
    }
    return { queues, publicQueueIds: read.publicQueues, index: read.version };
  }
}

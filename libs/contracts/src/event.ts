import { z } from 'zod';
import type { ServiceName } from './services';
import { SUBJECT_PREFIX, eventSubject } from './subject';

/**
 * A domain event on JetStream, published after the database commit. Its subject is
 * `event.<service>.<name>.v1`; consumers read them all from one stream.
 */
export interface EventDef<Payload> {
  readonly subject: string;
  readonly service: ServiceName;
  readonly payload: z.ZodType<Payload>;
}

export function defineEvent<Payload>(service: ServiceName, name: string, payload: z.ZodType<Payload>): EventDef<Payload> {
  return { subject: eventSubject(service, name), service, payload };
}

/** The JetStream stream that keeps every domain event of this deployment (namespace included). */
export const eventStreamName = (subjectPrefix: string): string =>
  `TEAMCHAT_EVENTS${subjectPrefix ? `_${subjectPrefix.slice(0, -1)}` : ''}`;
export const EVENT_STREAM = eventStreamName(SUBJECT_PREFIX);
export const EVENT_SUBJECTS = `${SUBJECT_PREFIX}event.>`;

/**
 * The header that names the organization a domain event belongs to (its payload's `realmId`),
 * so that the gateways' fan-out finds an event's partition without decoding it.
 */
export const REALM_HEADER = 'Teamchat-Realm';

/**
 * The usual shape: one Zulip event, the same for every user it concerns. `event` is the
 * client-facing payload from the reference OpenAPI file, without the queue's `id`.
 */
export const clientEventSchema = z.object({
  realmId: z.number().int(),
  users: z.array(z.number().int()),
  event: z.record(z.string(), z.unknown()).and(z.object({ type: z.string() })),
});
export type ClientEvent = z.infer<typeof clientEventSchema>;


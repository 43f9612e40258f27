import { z } from 'zod';
import { apiSchema, int } from '../api/api-schemas';

/** `heartbeat`: what a long-poll with nothing to deliver answers. */
export const heartbeatEvent = z.object({ id: int(), type: z.literal('heartbeat') });

/**
 * Every event a queue can deliver, as GET /events shows it (with its queue `id`).
 * TODO(helper): one schema per event type and op.
 */
export const clientEventSchema = apiSchema('Event', z.union([heartbeatEvent, z.object({ id: int(), type: z.string() }).catchall(z.unknown())]));

import { z } from 'zod';
import { int } from '../api/api-schemas';

/**
 * The events a queue delivers, as GET /events shows them: each has the queue's `id` (which only
 * increases) and its `type`, plus `op` where Zulip's event has one. One schema per type and op.
 * The schemas are split by topic (message-client-events.ts, channel-client-events.ts,
 * user-client-events.ts); client-events.ts gathers them into the one union.
 */
export const base = <T extends string>(type: T) => ({ id: int(), type: z.literal(type) });
export const withOp = <T extends string, O extends string>(type: T, op: O) => ({ ...base(type), op: z.literal(op) });

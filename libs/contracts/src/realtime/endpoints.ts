import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineEndpoint } from '../api/endpoint';
import { emptyResponse } from '../api/api-schemas';
import { getMessagesParams } from '../messaging/messages';
import { clientEventSchema } from './client-events';
import { registerResponseSchema } from './register-response';

const eventTypeList = z.array(z.string()).nullable();

/** POST /register (zerver/views/events_register.py). */
export const registerParams = {
  apply_markdown: param.bool().default(false),
  client_gravatar: param.bool().default(true),
  include_subscribers: param.bool().default(false),
  slim_presence: param.bool().default(false),
  presence_history_limit_days: param.int().optional(),
  all_public_streams: param.bool().default(false),
  client_capabilities: param.json(z.record(z.string(), z.boolean())).default({}),
  event_types: param.json(eventTypeList).optional(),
  fetch_event_types: param.json(eventTypeList).optional(),
  narrow: getMessagesParams.narrow,
  queue_lifespan_secs: param.json(z.number().int().min(0)).default(0),
};

/** Served by the gateway: the queue lives in Redis, the state comes from its owners. */
export const register = defineEndpoint({
  route: 'POST /register',
  summary: 'Registers an event queue and returns the initial state it continues from.',
  params: registerParams,
  response: registerResponseSchema,
});

export const getEventsParams = {
  queue_id: param.string(),
  last_event_id: param.int(),
  dont_block: param.bool().default(false),
};

export const getEvents = defineEndpoint({
  route: 'GET /events',
  summary: 'Long-polls an event queue: answers at the next event, or with a heartbeat.',
  params: getEventsParams,
  response: z.object({ queue_id: z.string(), events: z.array(clientEventSchema) }),
});

export const deleteQueueParams = {
  queue_id: param.string(),
};

export const deleteQueue = defineEndpoint({
  route: 'DELETE /events',
  summary: 'Deletes an event queue of the caller’s.',
  params: deleteQueueParams,
  response: emptyResponse,
});

import { Messaging } from '@teamchat/contracts';
import { param } from '@teamchat/zulip';
import { z } from 'zod';

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
  narrow: Messaging.getMessagesParams.narrow,
  queue_lifespan_secs: param.json(z.number().int().min(0)).default(0),
};

/** GET /events. */
export const getEventsParams = {
  queue_id: param.string(),
  last_event_id: param.int(),
  dont_block: param.bool().default(false),
};

/** DELETE /events. */
export const deleteQueueParams = {
  queue_id: param.string(),
};

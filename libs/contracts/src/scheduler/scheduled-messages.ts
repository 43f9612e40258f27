import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { apiSchema, emptyResponse, int } from '../api/api-schemas';

/** A scheduled message as GET /scheduled_messages and the `scheduled_messages` events show it (Zulip's ScheduledMessage.to_dict). */
export const scheduledMessageSchema = apiSchema(
  'ScheduledMessage',
  z.object({
    scheduled_message_id: int(),
    type: z.enum(['stream', 'private']),
    /** A channel: its ID; direct: the other participants' IDs (the sender's own alone when to self). */
    to: z.union([int(), z.array(int())]),
    /** Channel messages only. */
    topic: z.string().optional(),
    content: z.string(),
    rendered_content: z.string(),
    /** Unix seconds. */
    scheduled_delivery_timestamp: int(),
    failed: z.boolean(),
  }),
);
export type ScheduledMessageRecord = z.infer<typeof scheduledMessageSchema>;

const RECIPIENT_TYPES = ['direct', 'channel', 'stream', 'private'] as const;

export const createScheduledMessageParams = {
  type: param.oneOf(RECIPIENT_TYPES),
  /** A channel ID, or a JSON list of user IDs: parsed as POST /messages parses `to`. */
  to: param.string(),
  content: param.string().allowNullBytes(),
  topic: param.string().allowNullBytes().alias('subject').optional(),
  scheduled_delivery_timestamp: param.int(),
  read_by_sender: param.bool().optional(),
};

export const createScheduledMessage = defineApiCommand('scheduler', 'create_scheduled_message', {
  route: 'POST /scheduled_messages',
  summary: 'Schedules a channel or direct message to be sent later.',
  params: createScheduledMessageParams,
  response: z.object({ scheduled_message_id: int() }),
});

export const listScheduledMessages = defineApiCommand('scheduler', 'list_scheduled_messages', {
  route: 'GET /scheduled_messages',
  summary: "The caller's undelivered scheduled messages, failed ones included, earliest first.",
  params: {},
  response: z.object({ scheduled_messages: z.array(scheduledMessageSchema) }),
});

export const scheduledMessagePathParams = {
  scheduled_message_id: param.int(),
};

export const updateScheduledMessageParams = {
  ...scheduledMessagePathParams,
  type: param.oneOf(RECIPIENT_TYPES).optional(),
  to: param.string().optional(),
  content: param.string().allowNullBytes().optional(),
  topic: param.string().allowNullBytes().alias('subject').optional(),
  scheduled_delivery_timestamp: param.int().optional(),
};

export const updateScheduledMessage = defineApiCommand('scheduler', 'update_scheduled_message', {
  route: 'PATCH /scheduled_messages/{scheduled_message_id}',
  summary: "Edits a scheduled message of the caller's; a failed one is pending again.",
  params: updateScheduledMessageParams,
  response: emptyResponse,
});

export const deleteScheduledMessage = defineApiCommand('scheduler', 'delete_scheduled_message', {
  route: 'DELETE /scheduled_messages/{scheduled_message_id}',
  summary: "Deletes a scheduled message of the caller's.",
  params: scheduledMessagePathParams,
  response: emptyResponse,
});

/** The BullMQ queue of deliveries and its one job kind (one job per scheduled message version). */
export const DELIVERY_QUEUE = 'scheduled-delivery';
export const DELIVERY_JOB = 'deliver-scheduled-message.v1';
export const deliveryJobSchema = z.object({ id: z.number().int(), version: z.number().int() });
export type DeliveryJob = z.infer<typeof deliveryJobSchema>;

import { z } from 'zod';
import { defineEvent } from '../event';

/**
 * Outgoing webhooks (zerver/lib/outgoing_webhook.py, zerver/worker/outgoing_webhooks.py): a
 * message that mentions an outgoing webhook bot in a channel, or is a direct message to one,
 * triggers a POST to the bot's service. Messaging decides it while sending (no extra query: the
 * mentioned and direct recipients' profiles are read anyway) and writes this event with the
 * message, in the send's one statement (the outbox); a durable consumer in messaging turns it into
 * one BullMQ job per bot, whose worker calls the service and posts the bot's answer.
 */

export const OUTGOING_WEBHOOK_TRIGGERS = ['mention', 'direct_message'] as const;
export type OutgoingWebhookTrigger = (typeof OUTGOING_WEBHOOK_TRIGGERS)[number];

export const serviceBotTriggerSchema = z.object({ userId: z.number().int(), trigger: z.enum(OUTGOING_WEBHOOK_TRIGGERS) });

/**
 * `event.messaging.outgoing_webhook_triggered.v1` (not a client event): the message as the
 * services get it (Zulip's MessageDict with apply_markdown off: `content` the Markdown source,
 * `rendered_content` the HTML), and the bots it triggers.
 */
export const outgoingWebhookTriggeredSchema = z.object({
  realmId: z.number().int(),
  message: z.record(z.string(), z.unknown()),
  bots: z.array(serviceBotTriggerSchema),
});
export type OutgoingWebhookTriggered = z.infer<typeof outgoingWebhookTriggeredSchema>;

export const OutgoingWebhookEvents = {
  outgoingWebhookTriggered: defineEvent('messaging', 'outgoing_webhook_triggered', outgoingWebhookTriggeredSchema),
};

/** The BullMQ queue of calls to outgoing webhook services (messaging's worker). */
export const OUTGOING_WEBHOOKS_QUEUE = 'outgoing-webhooks';
export const OUTGOING_WEBHOOK_JOB = 'outgoing-webhook';

/** One bot's call for one message: its id is the pair's, so a redelivered event adds nothing. */
export const outgoingWebhookJobSchema = z.object({
  realmId: z.number().int(),
  botId: z.number().int(),
  trigger: z.enum(OUTGOING_WEBHOOK_TRIGGERS),
  message: z.record(z.string(), z.unknown()),
});
export type OutgoingWebhookJob = z.infer<typeof outgoingWebhookJobSchema>;
export const outgoingWebhookJobId = (messageId: number, botId: number) => `outgoing-webhook-${messageId}-${botId}`;

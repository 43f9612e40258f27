import { z } from 'zod';
import { defineCommand } from '../command';

/**
 * Internal: the organization's notification bot (Zulip's NOTIFICATION_BOT), created on first
 * use. What the scheduler sends its failure notices as.
 */
export const notificationBot = defineCommand<{ realmId: number }, { userId: number }>(
  'users-groups',
  'notification_bot',
  z.object({ realmId: z.number().int() }),
);

/** The bot's address, in the organization's host's domain. */
export const NOTIFICATION_BOT_LOCAL_PART = 'notification-bot';
export const NOTIFICATION_BOT_NAME = 'Notification Bot';

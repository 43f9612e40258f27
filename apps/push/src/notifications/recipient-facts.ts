import { resolveSettings } from '@teamchat/contracts';
import type { RecipientRow } from '../data/notification-context.readonly.repository';
import type { RecipientFacts } from './notification-rules';

/** A recipient row as the notification rules read it, and the recipient's email batching period. */
export function factsOf(row: RecipientRow, clientOpen: boolean, isChannel: boolean): RecipientFacts & { batchingSeconds: number } {
  const settings = resolveSettings(row.realmDefaults, row.settings);
  return {
    batchingSeconds: settings.email_notifications_batching_period_seconds,
    userId: row.userId,
    isActive: row.isActive,
    isBot: row.isBot,
    flags: row.flags,
    clientOpen,
    settings,
    ...(isChannel
      ? {
          subscription:
            row.subMuted === null
              ? undefined
              : { isMuted: row.subMuted, pushNotifications: row.subPush, emailNotifications: row.subEmail, wildcardMentionsNotify: row.subWildcard },
          visibility: row.visibility ?? 0,
        }
      : {}),
  };
}

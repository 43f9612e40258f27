import { Messaging } from '@teamchat/contracts';
import { outgoing, type OutgoingEvent } from '../core/outgoing-events';

/**
 * Zulip's clean_alert_words and add_user_alert_words: stripped, blanks dropped, one per word
 * whatever its case (the last spelling sent wins), none the user has already in any case.
 */
export function newAlertWords(sent: string[], existing: string[]): string[] {
  const have = new Set(existing.map((word) => word.toLowerCase()));
  const fresh = new Map<string, string>();
  for (const word of sent.map((w) => w.trim())) {
    if (word === '' || have.has(word.toLowerCase())) continue;
    fresh.set(word.toLowerCase(), word);
  }
  return [...fresh.values()];
}

/** `alert_words` with the user's whole list, for their clients only. */
export const alertWordsEvent = (realmId: number, userId: number, words: string[]): OutgoingEvent =>
  outgoing(Messaging.MessagingEvents.alertWordsChanged, { realmId, users: [userId], event: { type: 'alert_words', alert_words: words } });

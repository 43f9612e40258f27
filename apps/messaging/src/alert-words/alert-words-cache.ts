import { Injectable } from '@nestjs/common';
import { MessagingEvents } from '@teamchat/contracts';
import { CommandConnection } from '@teamchat/platform';
import { RealmCache } from '../core/realm-cache';
import { AlertWordsRepository } from '../data/alert-words.repository';

/**
 * Every organization's alert words by lower-cased word (Zulip's realm_alert_words_automaton,
 * kept in its cache the same way): what a send matches its content against. Emptied by any
 * `alert_words` event (see RealmCache).
 */
@Injectable()
export class AlertWordsCache {
  private readonly cache: RealmCache<ReadonlyMap<string, readonly number[]>>;

  constructor(alertWords: AlertWordsRepository, connection: CommandConnection) {
    this.cache = new RealmCache(
      async (realmId) => {
        const words = new Map<string, number[]>();
        for (const { userId, word } of await alertWords.ofRealm(realmId)) {
          const key = word.toLowerCase();
          const owners = words.get(key);
          if (owners) owners.push(userId);
          else words.set(key, [userId]);
        }
        return words;
      },
      connection,
      MessagingEvents.alertWordsChanged.subject,
    );
  }

  /** The organization's alert words: each lower-cased word with the users who have it. */
  of(realmId: number): Promise<ReadonlyMap<string, readonly number[]>> {
    return this.cache.of(realmId);
  }
}

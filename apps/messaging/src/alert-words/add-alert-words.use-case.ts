import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { AlertWordsRepository } from '../data/alert-words.repository';
import { alertWordsEvent, newAlertWords } from './alert-word-rules';

/**
 * POST /users/me/alert_words (zerver/views/alert_words.py add_alert_words, do_add_alert_words):
 * each word at most 100 characters as sent (the parameter's check), then stripped; blanks and
 * words the user has in any case are ignored. Answers the whole list; the user's clients get
 * `alert_words` with it (as Zulip, even when nothing was new), which also empties every
 * replica's alert-word cache.
 */
@Injectable()
export class AddAlertWords {
  constructor(
    private readonly alertWords: AlertWordsRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.addAlertWordsParams>>): Promise<{ alert_words: string[] }> {
    return this.outbox.run(async (tx) => {
      await this.alertWords.add(realm.id, user.id, newAlertWords(params.alert_words, await this.alertWords.of(user.id, tx)), tx);
      const words = await this.alertWords.of(user.id, tx);
      return { value: { alert_words: words }, events: [alertWordsEvent(realm.id, user.id, words)] };
    }, requestId);
  }
}

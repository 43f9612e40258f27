import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { AlertWordsRepository } from '../data/alert-words.repository';
import { alertWordsEvent } from './alert-word-rules';

/**
 * DELETE /users/me/alert_words (zerver/views/alert_words.py remove_alert_words,
 * do_remove_alert_words): removes the user's words equal to any sent whatever the case; unknown
 * ones are ignored. Answers and announces the words left, as adding does.
 */
@Injectable()
export class RemoveAlertWords {
  constructor(
    private readonly alertWords: AlertWordsRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.removeAlertWordsParams>>): Promise<{ alert_words: string[] }> {
    return this.outbox.run(async (tx) => {
      await this.alertWords.remove(user.id, params.alert_words, tx);
      const words = await this.alertWords.of(user.id, tx);
      return { value: { alert_words: words }, events: [alertWordsEvent(realm.id, user.id, words)] };
    }, requestId);
  }
}

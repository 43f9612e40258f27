import { Injectable } from '@nestjs/common';
import type { UserCommand } from '@teamchat/contracts';
import { AlertWordsRepository } from '../data/alert-words.repository';

/** GET /users/me/alert_words (zerver/views/alert_words.py list_alert_words). */
@Injectable()
export class ListAlertWords {
  constructor(private readonly alertWords: AlertWordsRepository) {}

  async execute({ user }: UserCommand<Record<string, never>>): Promise<{ alert_words: string[] }> {
    return { alert_words: await this.alertWords.of(user.id) };
  }
}

import { Injectable } from '@nestjs/common';
import { PgService } from '@teamchat/db';
import { alertWordsOf, deleteAlertWords, insertAlertWords, realmAlertWords } from './alert-words.sql';

/** `alert_words`, which messaging owns: each user's alert words (their owner's case kept). */
@Injectable()
export class AlertWordsRepository {
  constructor(private readonly pg: PgService) {}

  async of(userId: number): Promise<string[]> {
    return (await this.pg.run(alertWordsOf, userId)).map((row) => row.word);
  }

  /** Adds words the user has in no case yet (the caller passes them distinct whatever their case). */
  async add(realmId: number, userId: number, words: string[]): Promise<void> {
    if (words.length > 0) await this.pg.run(insertAlertWords, realmId, userId, words);
  }

  async remove(userId: number, words: string[]): Promise<void> {
    if (words.length > 0) await this.pg.run(deleteAlertWords, userId, words);
  }

  /** Every alert word of the organization with its owner. */
  ofRealm(realmId: number): Promise<{ userId: number; word: string }[]> {
    return this.pg.run(realmAlertWords, realmId);
  }
}

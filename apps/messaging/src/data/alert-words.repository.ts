import { Injectable } from '@nestjs/common';
import { PgService } from '@teamchat/db';
import type { Tx } from './transactions';
import { alertWordsOf, deleteAlertWords, insertAlertWords, realmAlertWords } from './alert-words.sql';

/** `alert_words`, which messaging owns: each user's alert words (their owner's case kept). */
@Injectable()
export class AlertWordsRepository {
  constructor(private readonly pg: PgService) {}

  async of(userId: number, tx: Tx = this.pg): Promise<string[]> {
    return (await tx.run(alertWordsOf, userId)).map((row) => row.word);
  }

  /** Adds words the user has in no case yet (the caller passes them distinct whatever their case). */
  async add(realmId: number, userId: number, words: string[], tx: Tx = this.pg): Promise<void> {
    if (words.length > 0) await tx.run(insertAlertWords, realmId, userId, words);
  }

  async remove(userId: number, words: string[], tx: Tx = this.pg): Promise<void> {
    if (words.length > 0) await tx.run(deleteAlertWords, userId, words);
  }

  /** Every alert word of the organization with its owner. */
  ofRealm(realmId: number): Promise<{ userId: number; word: string }[]> {
    return this.pg.run(realmAlertWords, realmId);
  }
}

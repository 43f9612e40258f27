import { Injectable } from '@nestjs/common';
import { PgService } from '@teamchat/db';
import { deleteMute, insertMute, mutesInRealm, mutesOf } from './muted-users.sql';
import type { Tx } from './transactions';

/**
 * `muted_users`, which messaging owns: who muted whom. A send reads it through MutersCache, the
 * notification decision (push) reads it too.
 */
@Injectable()
export class MutedUsersRepository {
  constructor(private readonly pg: PgService) {}

  /** False when the user had muted them already. */
  async mute(userId: number, mutedUserId: number, tx: Tx = this.pg): Promise<boolean> {
    return (await tx.run(insertMute, userId, mutedUserId)).length > 0;
  }

  /** False when they were not muted. */
  async unmute(userId: number, mutedUserId: number, tx: Tx = this.pg): Promise<boolean> {
    return (await tx.run(deleteMute, userId, mutedUserId)).length > 0;
  }

  /** The user's muted users as clients list them. */
  of(userId: number, tx: Tx = this.pg): Promise<{ id: number; timestamp: number }[]> {
    return tx.run(mutesOf, userId);
  }

  /** Every mute among the organization's users (MutersCache's). */
  ofRealm(realmId: number): Promise<{ userId: number; mutedUserId: number }[]> {
    return this.pg.run(mutesInRealm, realmId);
  }
}

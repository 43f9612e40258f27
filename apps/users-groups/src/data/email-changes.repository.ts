import { Injectable } from '@nestjs/common';
import type { EmailChangeRequestModel } from '@teamchat/db';
import type { Transaction } from './transactions';

/** A pending change as it is stored. */
export type NewEmailChange = Pick<EmailChangeRequestModel, 'key' | 'userId' | 'oldEmail' | 'newEmail' | 'expiresAt'>;

/** The `email_change_requests` table: at most one pending change per user, named by its key. */
@Injectable()
export class EmailChangesRepository {
  /** Replaces the user's pending changes with this one. */
  async replacePending(change: NewEmailChange, tx: Transaction): Promise<void> {
    await tx.emailChangeRequest.deleteMany({ where: { userId: change.userId } });
    await tx.emailChangeRequest.create({ data: change });
  }

  /**
   * The user whose pending change `key` names, if that user belongs to the organization; the
   * change and the user locked until the transaction ends.
   */
  async lockForConfirmation(key: string, realmId: number, tx: Transaction): Promise<number | undefined> {
    const [locked] = await tx.$queryRaw<{ userId: number }[]>`
        SELECT r.user_id AS "userId" FROM email_change_requests r JOIN users u ON u.id = r.user_id
        WHERE r.key = ${key} AND u.realm_id = ${realmId}
        FOR UPDATE OF r, u`;
    return locked?.userId;
  }

  /** A change known to exist. */
  byKey(key: string, tx: Transaction): Promise<EmailChangeRequestModel> {
    return tx.emailChangeRequest.findUniqueOrThrow({ where: { key } });
  }

  /** Deletes every pending change of the user's. */
  async deleteOfUser(userId: number, tx: Transaction): Promise<void> {
    await tx.emailChangeRequest.deleteMany({ where: { userId } });
  }
}

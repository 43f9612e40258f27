import { Injectable } from '@nestjs/common';
import type { UsersGroups, PayloadOf } from '@teamchat/contracts';
import { Transactions } from '../data/transactions';
import { GroupSettingValues } from './group-setting-values';

type Payload = PayloadOf<typeof UsersGroups.resolveGroupSetting>;

/**
 * For another service's group-based setting (a channel's): checks `old`, then stores the new
 * value (users-groups owns every group, anonymous ones included) and answers its group's id.
 */
@Injectable()
export class ResolveGroupSetting {
  constructor(
    private readonly transactions: Transactions,
    private readonly values: GroupSettingValues,
  ) {}

  async execute({ realmId, setting, restrictions, change, current }: Payload): Promise<{ groupId: number }> {
    if (change.old !== undefined) await this.values.checkCurrent(realmId, current, change.old);
    const groupId = await this.transactions.run(async (tx) => {
      const next = await this.values.resolveFor(tx, realmId, setting, restrictions, change.new, current);
      await this.values.dropIfAnonymous(tx, current, next);
      return next;
    });
    return { groupId };
  }
}

import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
import { LinkifiersRepository } from '../data/linkifiers.repository';
import { isUniqueViolation } from '../data/unique-violation';
import { AnnounceOrganizationLists } from './announce';
import { checkPlayground } from './linkifier-rules';

type Params = DecodedParams<typeof Messaging.createPlaygroundParams>;

/** POST /realm/playgrounds (add_realm_playground, do_add_realm_playground): administrators; everyone is told. */
@Injectable()
export class CreatePlayground {
  constructor(
    private readonly repository: LinkifiersRepository,
    private readonly announce: AnnounceOrganizationLists,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<{ id: number }> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const taken = (language: string, name: string) => this.repository.playgroundTaken(realm.id, language, name);
    const { name, language, urlTemplate } = await checkPlayground(params, taken);
    const row = await this.announce
      .playgrounds(realm.id, requestId, (tx) => this.repository.createPlayground(realm.id, name, language, urlTemplate, tx))
      .catch(async (error: unknown) => {
        if (isUniqueViolation(error)) await checkPlayground(params, taken);
        throw error;
      });
    return { id: row.id };
  }
}

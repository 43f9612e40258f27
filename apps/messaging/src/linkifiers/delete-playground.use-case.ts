import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { badRequest, isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
import { LinkifiersRepository } from '../data/linkifiers.repository';
import { AnnounceOrganizationLists } from './announce';

type Params = DecodedParams<typeof Messaging.deletePlaygroundParams>;

/** DELETE /realm/playgrounds/{playground_id} (delete_realm_playground): administrators; everyone is told. */
@Injectable()
export class DeletePlayground {
  constructor(
    private readonly repository: LinkifiersRepository,
    private readonly announce: AnnounceOrganizationLists,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const id = params.playground_id;
    if (!isStoredId(id)) throw badRequest('Invalid playground');
    await this.announce.playgrounds(realm.id, requestId, async (tx) => {
      if (!(await this.repository.deletePlayground(id, realm.id, tx))) throw badRequest('Invalid playground');
    });
    return {};
  }
}

import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
import { LinkifiersRepository } from '../data/linkifiers.repository';
import { AnnounceOrganizationLists } from './announce';
import { linkifierNotFound } from './linkifier-rules';

type Params = DecodedParams<typeof Messaging.deleteLinkifierParams>;

/** DELETE /realm/filters/{filter_id} (do_remove_linkifier): administrators; everyone is told. */
@Injectable()
export class DeleteLinkifier {
  constructor(
    private readonly repository: LinkifiersRepository,
    private readonly announce: AnnounceOrganizationLists,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const id = params.filter_id;
    if (!isStoredId(id)) throw linkifierNotFound();
    await this.announce.linkifiers(realm.id, requestId, async (tx) => {
      if (!(await this.repository.delete(id, realm.id, tx))) throw linkifierNotFound();
    });
    return {};
  }
}

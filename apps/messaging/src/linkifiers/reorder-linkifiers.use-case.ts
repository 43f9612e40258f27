import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { badRequest, isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
import { LinkifiersRepository } from '../data/linkifiers.repository';
import { AnnounceOrganizationLists } from './announce';

type Params = DecodedParams<typeof Messaging.reorderLinkifiersParams>;

/**
 * PATCH /realm/linkifiers (check_reorder_linkifiers): administrators; the list names every
 * linkifier of the organization exactly once. With none, nothing happens and nobody is told.
 */
@Injectable()
export class ReorderLinkifiers {
  constructor(
    private readonly repository: LinkifiersRepository,
    private readonly announce: AnnounceOrganizationLists,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const ids = params.ordered_linkifier_ids;
    const wanted = new Set(ids);
    if (wanted.size < ids.length) throw badRequest('The ordered list must not contain duplicated linkifiers');
    const existing = await this.repository.ofRealm(realm.id);
    if (existing.length !== wanted.size || existing.some((row) => !wanted.has(row.id))) {
      throw badRequest('The ordered list must enumerate all existing linkifiers exactly once');
    }
    if (existing.length === 0) return {};
    await this.announce.linkifiers(realm.id, requestId, (tx) => this.repository.reorder(realm.id, ids, tx));
    return {};
  }
}

import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
import { LinkifiersRepository } from '../data/linkifiers.repository';
import { isUniqueViolation } from '../data/unique-violation';
import { AnnounceOrganizationLists } from './announce';
import { checkLinkifier } from './linkifier-rules';

type Params = DecodedParams<typeof Messaging.createLinkifierParams>;

/**
 * POST /realm/filters (do_add_linkifier): administrators; both texts stripped and checked as
 * RealmFilter.full_clean does; the linkifier applies after the others; everyone is told.
 */
@Injectable()
export class CreateLinkifier {
  constructor(
    private readonly repository: LinkifiersRepository,
    private readonly announce: AnnounceOrganizationLists,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<{ id: number }> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const pattern = params.pattern.trim();
    const urlTemplate = params.url_template.trim();
    const taken = () => this.repository.patternTaken(realm.id, pattern);
    await checkLinkifier(pattern, urlTemplate, taken);
    const row = await this.announce
      .linkifiers(realm.id, requestId, (tx) => this.repository.create(realm.id, pattern, urlTemplate, tx))
      .catch(async (error: unknown) => {
        // Another request added the pattern meanwhile: the same refusal as if it had been first.
        if (isUniqueViolation(error)) await checkLinkifier(pattern, urlTemplate, taken);
        throw error;
      });
    return { id: row.id };
  }
}

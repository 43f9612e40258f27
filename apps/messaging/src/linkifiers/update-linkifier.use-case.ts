import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { isAdminRole, mustBeAdmin, type DecodedParams } from '@teamchat/zulip';
import { LinkifiersRepository } from '../data/linkifiers.repository';
import { isUniqueViolation } from '../data/unique-violation';
import { AnnounceOrganizationLists } from './announce';
import { checkLinkifier, linkifierNotFound } from './linkifier-rules';

type Params = DecodedParams<typeof Messaging.updateLinkifierParams>;

/** PATCH /realm/filters/{filter_id} (do_update_linkifier): administrators; the same checks as adding; everyone is told. */
@Injectable()
export class UpdateLinkifier {
  constructor(
    private readonly repository: LinkifiersRepository,
    private readonly announce: AnnounceOrganizationLists,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    const id = params.filter_id;
    if (!isStoredId(id) || !(await this.repository.find(id, realm.id))) throw linkifierNotFound();
    const pattern = params.pattern.trim();
    const urlTemplate = params.url_template.trim();
    const taken = () => this.repository.patternTaken(realm.id, pattern, id);
    await checkLinkifier(pattern, urlTemplate, taken);
    await this.announce
      .linkifiers(realm.id, requestId, async (tx) => {
        if (!(await this.repository.update(id, realm.id, pattern, urlTemplate, tx))) throw linkifierNotFound();
      })
      .catch(async (error: unknown) => {
        if (isUniqueViolation(error)) await checkLinkifier(pattern, urlTemplate, taken);
        throw error;
      });
    return {};
  }
}

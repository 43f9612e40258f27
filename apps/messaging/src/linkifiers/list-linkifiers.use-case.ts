import { Injectable } from '@nestjs/common';
import type { Messaging, UserCommand } from '@teamchat/contracts';
import { LinkifiersRepository } from '../data/linkifiers.repository';
import { toLinkifierRecord } from './linkifier-rules';

/** GET /realm/linkifiers (list_linkifiers): anyone in the organization, in the order they apply. */
@Injectable()
export class ListLinkifiers {
  constructor(private readonly repository: LinkifiersRepository) {}

  async execute({ realm }: UserCommand<Record<string, never>>): Promise<{ linkifiers: Messaging.LinkifierRecord[] }> {
    return { linkifiers: (await this.repository.ofRealm(realm.id)).map(toLinkifierRecord) };
  }
}

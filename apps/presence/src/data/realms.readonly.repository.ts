import { Injectable } from '@nestjs/common';
import { PgService, statement } from '@teamchat/db';

/** An organization's subdomain (its host for the addresses presence events show). */
const realmSubdomain = statement<{ subdomain: string }, [realmId: number]>(
  'presence.realm_subdomain',
  `SELECT subdomain FROM realms WHERE id = $1`,
);

/** READ-ONLY view of users-groups' `realms` table. Presence never writes it. */
@Injectable()
export class RealmsReadonlyRepository {
  constructor(private readonly pg: PgService) {}

  /** The organization's subdomain ('' for the root one); null when there is no such organization. */
  async subdomain(realmId: number): Promise<string | null> {
    const [realm] = await this.pg.run(realmSubdomain, realmId);
    return realm ? realm.subdomain : null;
  }
}

import { Injectable } from '@nestjs/common';
import type { UserCommand } from '@teamchat/contracts';
import { ProfileFieldsRepository } from '../data/profile-fields.repository';
import { customProfileFieldRecord } from '../register/organization-state';

/** GET /realm/profile_fields (list_realm_custom_profile_fields): anyone in the organization. */
@Injectable()
export class ListProfileFields {
  constructor(private readonly fields: ProfileFieldsRepository) {}

  async execute({ realm }: UserCommand<Record<string, never>>) {
    return { custom_fields: (await this.fields.ofRealm(realm.id)).map(customProfileFieldRecord) as never[] };
  }
}

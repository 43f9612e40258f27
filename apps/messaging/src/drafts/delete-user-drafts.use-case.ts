import { Injectable } from '@nestjs/common';
import { DraftsRepository } from '../data/drafts.repository';

/** Deletes all of a user's stored drafts (their synchronisation was turned off). */
@Injectable()
export class DeleteUserDrafts {
  constructor(private readonly drafts: DraftsRepository) {}

  async execute({ userId }: { realmId: number; userId: number }): Promise<{ deleted: number }> {
    return { deleted: await this.drafts.deleteAllOf(userId) };
  }
}

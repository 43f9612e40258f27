import { Injectable } from '@nestjs/common';
import type { ApiCommand, Presence } from '@teamchat/contracts';
import { PresenceReader } from './presence-reader';

/** GET /realm/presence (get_statuses_for_realm): the legacy format, without presence_last_update_id. */
@Injectable()
export class GetRealmPresence {
  constructor(private readonly reader: PresenceReader) {}

  async execute({ realm }: ApiCommand<Record<string, never>>): Promise<{ presences: Record<string, Presence.LegacyPresence>; server_timestamp: number }> {
    const { presences, server_timestamp } = await this.reader.read(realm, { slim: false, lastUpdateId: null, historyLimitDays: null });
    return { presences: presences as Record<string, Presence.LegacyPresence>, server_timestamp };
  }
}

import { Injectable } from '@nestjs/common';
import { PgService, statement } from '@teamchat/db';

/**
 * The organization's people a viewer may not see while its can_access_all_users_group is
 * role:members (Zulip's get_inaccessible_users_queryset and get_accessible_user_ids): humans
 * other than the viewer who share no active channel subscription with them (an active user
 * only) and no direct-message conversation. Nobody when the organization lets everyone see
 * everyone. Reads messaging's `subscriptions` and `direct_message_groups`.
 */
const hiddenFrom = statement<{ id: number }, [realmId: number, viewerId: number]>(
  'users_groups.users_hidden_from',
  `WITH restricted AS (
     SELECT 1 FROM realms r JOIN user_groups g ON g.id = r.can_access_all_users_group_id
     WHERE r.id = $1 AND g.is_system_group AND g.name = 'role:members'
   ),
   via_channels AS (
     SELECT theirs.user_id AS id FROM subscriptions mine
     JOIN subscriptions theirs ON theirs.stream_id = mine.stream_id AND theirs.active
     WHERE mine.user_id = $2 AND mine.active
   ),
   via_direct_messages AS (
     SELECT unnest(member_ids) AS id FROM direct_message_groups WHERE realm_id = $1 AND $2 = ANY(member_ids)
   )
   SELECT u.id FROM users u
   WHERE EXISTS (SELECT 1 FROM restricted) AND u.realm_id = $1 AND u.id <> $2 AND NOT u.is_bot
     AND NOT (u.is_active AND u.id IN (SELECT id FROM via_channels))
     AND u.id NOT IN (SELECT id FROM via_direct_messages)
   ORDER BY u.id`,
);

/** Who may see whom: users-groups' people against messaging's subscriptions and conversations, read only. */
@Injectable()
export class UserAccessReadonlyRepository {
  constructor(private readonly pg: PgService) {}

  /** The ids of the users hidden from this viewer (see `hiddenFrom`), in id order. */
  async hiddenFrom(realmId: number, viewerId: number): Promise<number[]> {
    return (await this.pg.run(hiddenFrom, realmId, viewerId)).map((row) => row.id);
  }
}

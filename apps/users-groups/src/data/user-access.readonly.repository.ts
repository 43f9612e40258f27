import { Injectable } from '@nestjs/common';
import { PgService, statement } from '@teamchat/db';
import { onConnection, type PgTransaction, type Transaction } from './transactions';

/** Whether organization $1 restricts its guests (can_access_all_users_group is role:members). */
const RESTRICTED = `SELECT 1 FROM realms r JOIN user_groups g ON g.id = r.can_access_all_users_group_id
     WHERE r.id = $1 AND g.is_system_group AND g.name = 'role:members'`;

const restrictsGuests = statement<{ restricted: boolean }, [realmId: number]>('users_groups.restricts_guests', `SELECT EXISTS (${RESTRICTED}) AS restricted`);

/** The active users subscribed to any of the channels. */
const channelSubscribers = statement<{ id: number }, [channelIds: number[]]>(
  'users_groups.channel_subscribers',
  `SELECT DISTINCT s.user_id AS id FROM subscriptions s JOIN users u ON u.id = s.user_id
    WHERE s.stream_id = ANY($1::int[]) AND s.active AND u.is_active ORDER BY 1`,
);

/**
 * Who is hidden from whom while the organization's can_access_all_users_group is role:members
 * (Zulip's get_inaccessible_users_queryset and get_accessible_user_ids): for each viewer (the
 * organization's active guests, among `viewers` when given), the humans other than the
 * viewer who share no active channel subscription with them (an active user only) and no
 * direct-message conversation, among `targets` (null: everyone). Nothing when the organization
 * lets everyone see everyone. Reads messaging's `subscriptions` and `direct_message_groups`.
 * `withoutUser`'s subscriptions to `withoutChannels` are left out, when given: who was hidden
 * before they were made.
 */
const hiddenPairs = statement<
  { viewer: number; hidden: number },
  [realmId: number, viewerIds: number[] | null, targetIds: number[] | null, withoutUser: number | null, withoutChannels: number[] | null]
>(
  'users_groups.users_hidden_from',
  `WITH restricted AS (${RESTRICTED}),
   viewers AS (
     SELECT id FROM users
     WHERE EXISTS (SELECT 1 FROM restricted) AND realm_id = $1 AND role = 600 AND is_active
       AND ($2::int[] IS NULL OR id = ANY($2::int[]))
   ),
   via_channels AS (
     SELECT DISTINCT v.id AS viewer, theirs.user_id AS id FROM viewers v
     JOIN subscriptions mine ON mine.user_id = v.id AND mine.active
     JOIN subscriptions theirs ON theirs.stream_id = mine.stream_id AND theirs.active
     WHERE NOT coalesce(mine.user_id = $4::int AND mine.stream_id = ANY($5::int[]), false)
       AND NOT coalesce(theirs.user_id = $4::int AND theirs.stream_id = ANY($5::int[]), false)
   ),
   via_direct_messages AS (
     SELECT DISTINCT v.id AS viewer, unnest(d.member_ids) AS id FROM viewers v
     JOIN direct_message_groups d ON d.realm_id = $1 AND v.id = ANY(d.member_ids)
   )
   SELECT v.id AS viewer, u.id AS hidden FROM viewers v
   JOIN users u ON u.realm_id = $1 AND u.id <> v.id AND NOT u.is_bot AND ($3::int[] IS NULL OR u.id = ANY($3::int[]))
   WHERE NOT (u.is_active AND EXISTS (SELECT 1 FROM via_channels c WHERE c.viewer = v.id AND c.id = u.id))
     AND NOT EXISTS (SELECT 1 FROM via_direct_messages d WHERE d.viewer = v.id AND d.id = u.id)
   ORDER BY v.id, u.id`,
);

/** Who may see whom: users-groups' people against messaging's subscriptions and conversations, read only. */
@Injectable()
export class UserAccessReadonlyRepository {
  constructor(private readonly pg: PgService) {}

  /** The ids of the users hidden from this viewer (see `hiddenPairs`), among `among` when given, in id order. */
  async hiddenFrom(realmId: number, viewerId: number, among?: number[]): Promise<number[]> {
    return (await this.pg.run(hiddenPairs, realmId, [viewerId], among ?? null, null, null)).map((row) => row.hidden);
  }

  /** The organization's active guests this user is hidden from (see `hiddenPairs`). */
  async guestsNotSeeing(realmId: number, userId: number, tx: PgTransaction | Transaction = this.pg): Promise<number[]> {
    return (await onConnection(tx).run(hiddenPairs, realmId, null, [userId], null, null)).map((row) => row.viewer);
  }

  /**
   * The pairs (viewer, hidden) among `people`: who of them is hidden from which guest of them,
   * now, or (`without`) before a user's subscriptions to some channels were made.
   */
  async pairsAmong(
    realmId: number,
    people: number[],
    without: { userId: number; channelIds: number[] } | null,
    tx: PgTransaction | Transaction = this.pg,
  ): Promise<{ viewer: number; hidden: number }[]> {
    return onConnection(tx).run(hiddenPairs, realmId, people, people, without?.userId ?? null, without?.channelIds ?? null);
  }

  /** Whether the organization hides anyone from its guests at all (see `hiddenPairs`). */
  async restrictsGuests(realmId: number, tx: PgTransaction | Transaction = this.pg): Promise<boolean> {
    const [row] = await onConnection(tx).run(restrictsGuests, realmId);
    return row?.restricted === true;
  }

  /** The active users subscribed to any of these channels, in id order. */
  async subscribersOf(channelIds: number[], tx: PgTransaction | Transaction = this.pg): Promise<number[]> {
    return (await onConnection(tx).run(channelSubscribers, channelIds)).map((row) => row.id);
  }
}

import { statement } from '@teamchat/db';

/** `direct_message_groups`' statements (DirectMessageGroupsRepository's). */

/** Direct-message groups by id, with their members. */
export const directMessageGroups = statement<{ id: number; memberIds: number[] }, [groupIds: number[]]>(
  'messaging.direct_message_groups',
  `SELECT id, member_ids AS "memberIds" FROM direct_message_groups WHERE id = ANY($1::int[])`,
);

/** The direct-message group of a set of people (their sorted ids, comma-joined), if it exists. */
export const directMessageGroupByKey = statement<{ id: number }, [realmId: number, memberKey: string]>(
  'messaging.direct_message_group_by_key',
  `SELECT id FROM direct_message_groups WHERE realm_id = $1 AND member_key = $2`,
);

/** Creates the direct-message group of a set of people; no row when it exists already. */
export const createDirectMessageGroup = statement<{ id: number }, [realmId: number, memberKey: string, memberIds: number[]]>(
  'messaging.create_direct_message_group',
  `INSERT INTO direct_message_groups (realm_id, member_key, member_ids) VALUES ($1, $2, $3::int[])
   ON CONFLICT (realm_id, member_key) DO NOTHING
   RETURNING id`,
);

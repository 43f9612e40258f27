import { statement } from '@teamchat/db';

/** READ-ONLY: users-groups' `user_groups`, as mentions read them. */

/** The organization's named groups with these names (deactivated ones too: mentioning one is refused). */
export const groupsNamed = statement<{ id: number; name: string; deactivated: boolean; canMentionGroupId: number | null }, [realmId: number, names: string[]]>(
  'messaging.groups_named',
  `SELECT id, name, deactivated, can_mention_group_id AS "canMentionGroupId" FROM user_groups
   WHERE realm_id = $1 AND name = ANY($2::text[])`,
);

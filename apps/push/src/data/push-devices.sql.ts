import { statement } from '@teamchat/db';

/** Which of these users have a device a push can reach: an active E2EE device or a token. */
export const usersWithAnyDevice = statement<{ userId: number }, [userIds: number[]]>(
  'push.users_with_any_device',
  `SELECT user_id AS "userId" FROM push_devices WHERE user_id = ANY($1::int[]) AND bouncer_device_id IS NOT NULL AND error_code IS NULL
   UNION
   SELECT user_id FROM push_device_tokens WHERE user_id = ANY($1::int[])`,
);

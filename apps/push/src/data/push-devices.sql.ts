import { statement } from '@teamchat/db';

/** A user's device as POST /register shows it: its push account ID (as text: a bigint) and registration status. */
export interface DeviceStateRow {
  pushAccountId: string;
  bouncerDeviceId: string | null;
  errorCode: string | null;
}

/** The user's devices, oldest first, as POST /register shows them. */
export const deviceStatesOf = statement<DeviceStateRow, [userId: number]>(
  'push.device_states_of',
  `SELECT push_account_id::text AS "pushAccountId", bouncer_device_id::text AS "bouncerDeviceId", error_code AS "errorCode"
     FROM push_devices WHERE user_id = $1 ORDER BY id`,
);

/** Which of these users have a device a push can reach: an active E2EE device or a token. */
export const usersWithAnyDevice = statement<{ userId: number }, [userIds: number[]]>(
  'push.users_with_any_device',
  `SELECT user_id AS "userId" FROM push_devices WHERE user_id = ANY($1::int[]) AND bouncer_device_id IS NOT NULL AND error_code IS NULL
   UNION
   SELECT user_id FROM push_device_tokens WHERE user_id = ANY($1::int[])`,
);

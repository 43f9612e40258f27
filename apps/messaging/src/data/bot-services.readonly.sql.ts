import { statement } from '@teamchat/db';

/** READ-ONLY: users-groups' `users` and `bot_services`: what an outgoing webhook call needs of its bot. */

export interface ServiceBotRow {
  botId: number;
  fullName: string;
  email: string;
  isActive: boolean;
  ownerId: number | null;
  ownerActive: boolean | null;
  serviceName: string | null;
  baseUrl: string | null;
  token: string | null;
  interface: number | null;
  subdomain: string;
}

/** The bot, its first service and its owner (the organization's only). */
export const serviceBot = statement<ServiceBotRow, [realmId: number, botId: number]>(
  'messaging.service_bot',
  `SELECT b.id AS "botId", b.full_name AS "fullName", b.delivery_email AS email, b.is_active AS "isActive",
     b.bot_owner_id AS "ownerId", o.is_active AS "ownerActive", s.name AS "serviceName", s.base_url AS "baseUrl",
     s.token, s.interface, r.subdomain
   FROM users b
   JOIN realms r ON r.id = b.realm_id
   LEFT JOIN users o ON o.id = b.bot_owner_id AND o.realm_id = b.realm_id
   LEFT JOIN LATERAL (SELECT * FROM bot_services WHERE user_id = b.id ORDER BY id LIMIT 1) s ON true
   WHERE b.realm_id = $1 AND b.id = $2 AND b.is_bot`,
);

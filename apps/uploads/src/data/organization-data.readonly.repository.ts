import { Injectable } from '@nestjs/common';
import { PgService, statement, type Queryable, type Statement } from '@teamchat/db';

/** A row as Postgres's to_jsonb gives it: column names as keys, timestamps as ISO text. */
export type JsonRow = Record<string, unknown>;

const rows = (name: string, text: string) => statement<{ row: JsonRow }, [realmId: number]>(`uploads.export_${name}`, text);

/**
 * The organization's rows of each table an export carries, whole (every column, secrets never:
 * API keys and passwords live in tables of their own that are not read), in id order. Other
 * services own these tables; this repository only reads them, for the realm-export worker.
 */
const TABLES: Record<string, Statement<{ row: JsonRow }, [realmId: number]>> = {
  realms: rows('realms', `SELECT to_jsonb(t) AS row FROM realms t WHERE id = $1`),
  users: rows('users', `SELECT to_jsonb(t) AS row FROM users t WHERE realm_id = $1 ORDER BY id`),
  custom_profile_fields: rows('custom_profile_fields', `SELECT to_jsonb(t) AS row FROM custom_profile_fields t WHERE realm_id = $1 ORDER BY id`),
  custom_profile_field_values: rows(
    'custom_profile_field_values',
    `SELECT to_jsonb(t) AS row FROM custom_profile_field_values t JOIN users u ON u.id = t.user_id WHERE u.realm_id = $1 ORDER BY t.id`,
  ),
  realm_emoji: rows('realm_emoji', `SELECT to_jsonb(t) AS row FROM realm_emoji t WHERE realm_id = $1 ORDER BY id`),
  user_groups: rows('user_groups', `SELECT to_jsonb(t) AS row FROM user_groups t WHERE realm_id = $1 ORDER BY id`),
  user_group_members: rows(
    'user_group_members',
    `SELECT to_jsonb(t) AS row FROM user_group_members t JOIN user_groups g ON g.id = t.group_id WHERE g.realm_id = $1 ORDER BY t.group_id, t.user_id`,
  ),
  user_group_subgroups: rows(
    'user_group_subgroups',
    `SELECT to_jsonb(t) AS row FROM user_group_subgroups t JOIN user_groups g ON g.id = t.supergroup_id WHERE g.realm_id = $1
      ORDER BY t.supergroup_id, t.subgroup_id`,
  ),
  channel_folders: rows('channel_folders', `SELECT to_jsonb(t) AS row FROM channel_folders t WHERE realm_id = $1 ORDER BY id`),
  streams: rows('streams', `SELECT to_jsonb(t) - 'email_token' AS row FROM streams t WHERE realm_id = $1 ORDER BY id`),
  subscriptions: rows(
    'subscriptions',
    `SELECT to_jsonb(t) AS row FROM subscriptions t JOIN streams s ON s.id = t.stream_id WHERE s.realm_id = $1 ORDER BY t.id`,
  ),
  direct_message_groups: rows('direct_message_groups', `SELECT to_jsonb(t) AS row FROM direct_message_groups t WHERE realm_id = $1 ORDER BY id`),
  realm_linkifiers: rows('realm_linkifiers', `SELECT to_jsonb(t) AS row FROM realm_linkifiers t WHERE realm_id = $1 ORDER BY id`),
  realm_playgrounds: rows('realm_playgrounds', `SELECT to_jsonb(t) AS row FROM realm_playgrounds t WHERE realm_id = $1 ORDER BY id`),
};
export type ExportedTable = keyof typeof TABLES;
export const EXPORTED_TABLES = Object.keys(TABLES) as ExportedTable[];

/** Active human administrators and owners (Zulip's get_human_admin_users). */
const humanAdminIds = statement<{ id: number }, [realmId: number]>(
  'uploads.export_human_admin_ids',
  `SELECT id FROM users WHERE realm_id = $1 AND is_active AND NOT is_bot AND role <= 200 ORDER BY id`,
);

/** Each user's stored settings with the organization's defaults, to resolve allow_private_data_export and email_address_visibility. */
const userSettings = statement<
  { id: number; role: number; isActive: boolean; isBot: boolean; botOwnerId: number | null; settings: unknown; defaults: unknown },
  [realmId: number]
>(
  'uploads.export_user_settings',
  `SELECT u.id, u.role, u.is_active AS "isActive", u.is_bot AS "isBot", u.bot_owner_id AS "botOwnerId", u.settings, r.user_settings_defaults AS defaults
     FROM users u JOIN realms r ON r.id = u.realm_id WHERE u.realm_id = $1 ORDER BY u.id`,
);

/** Zulip's estimate of what an export would carry: public channels' messages only, or every message. */
const messageCount = statement<{ count: number }, [realmId: number, publicOnly: boolean]>(
  'uploads.export_message_count',
  `SELECT count(*)::int AS count FROM messages m LEFT JOIN streams s ON s.id = m.stream_id
    WHERE m.realm_id = $1 AND (NOT $2 OR (s.id IS NOT NULL AND NOT s.invite_only))`,
);

const uploadSpace = statement<{ used: number }, [realmId: number]>(
  'uploads.export_upload_space',
  `SELECT COALESCE(sum(size), 0)::float8 AS used FROM attachments WHERE realm_id = $1`,
);

/** A public export's messages: those of public channels. */
const publicMessageIds = statement<{ id: number }, [realmId: number]>(
  'uploads.export_public_message_ids',
  `SELECT m.id FROM messages m JOIN streams s ON s.id = m.stream_id WHERE m.realm_id = $1 AND NOT s.invite_only ORDER BY m.id`,
);

/**
 * A consent export's messages (zerver/lib/export.py export_partial_message_files): public
 * channels'; a private channel's when a consenting user is (or was) subscribed, and with
 * protected history only the messages such a user received; direct messages with a consenting
 * participant (sent or received).
 */
const consentedMessageIds = statement<{ id: number }, [realmId: number, consenting: number[]]>(
  'uploads.export_consented_message_ids',
  `SELECT m.id FROM messages m
     LEFT JOIN streams s ON s.id = m.stream_id
     LEFT JOIN direct_message_groups g ON g.id = m.dm_group_id
    WHERE m.realm_id = $1 AND (
      (s.id IS NOT NULL AND (
         NOT s.invite_only
         OR (s.history_public_to_subscribers AND EXISTS (SELECT 1 FROM subscriptions sub WHERE sub.stream_id = s.id AND sub.user_id = ANY($2::int[])))
         OR (NOT s.history_public_to_subscribers AND EXISTS (SELECT 1 FROM user_messages um WHERE um.message_id = m.id AND um.user_id = ANY($2::int[])))))
      OR (g.id IS NOT NULL AND g.member_ids && $2::int[]))
    ORDER BY m.id`,
);

const messagesByIds = statement<{ row: JsonRow }, [ids: number[]]>(
  'uploads.export_messages_by_ids',
  `SELECT to_jsonb(t) - 'search_tsvector' AS row FROM messages t WHERE id = ANY($1::int[]) ORDER BY id`,
);

const userMessagesByIds = statement<{ row: JsonRow }, [ids: number[], userIds: number[]]>(
  'uploads.export_user_messages_by_ids',
  `SELECT to_jsonb(t) AS row FROM user_messages t WHERE message_id = ANY($1::int[]) AND user_id = ANY($2::int[]) ORDER BY message_id, user_id`,
);

const reactionsByIds = statement<{ row: JsonRow }, [ids: number[]]>(
  'uploads.export_reactions_by_ids',
  `SELECT to_jsonb(t) AS row FROM reactions t WHERE message_id = ANY($1::int[]) ORDER BY id`,
);

/** The attachments the exported messages link, with those links only (Zulip's fetch_attachment_data). */
const attachmentsOfMessages = statement<{ row: JsonRow }, [realmId: number, ids: number[]]>(
  'uploads.export_attachments_of_messages',
  `SELECT to_jsonb(a) AS row FROM attachments a
    WHERE a.realm_id = $1 AND EXISTS (SELECT 1 FROM attachment_messages am WHERE am.attachment_id = a.id AND am.message_id = ANY($2::int[]))
    ORDER BY a.id`,
);

const attachmentLinks = statement<{ row: JsonRow }, [attachmentIds: number[], messageIds: number[]]>(
  'uploads.export_attachment_links',
  `SELECT to_jsonb(t) AS row FROM attachment_messages t WHERE attachment_id = ANY($1::int[]) AND message_id = ANY($2::int[])
    ORDER BY attachment_id, message_id`,
);

export interface ExportUser {
  id: number;
  role: number;
  isActive: boolean;
  isBot: boolean;
  botOwnerId: number | null;
  settings: unknown;
  defaults: unknown;
}

/**
 * What an organization export reads of the other services' tables (users-groups', messaging's
 * and the uploads service's own attachments): the one place the realm-export worker reaches
 * them, read only (see docs/architecture.md, Organization export and import).
 */
@Injectable()
export class OrganizationDataReadonlyRepository {
  constructor(private readonly pg: PgService) {}

  async table(name: ExportedTable, realmId: number): Promise<JsonRow[]> {
    return (await this.pg.run(TABLES[name], realmId)).map((r) => r.row);
  }

  /** `tx`: the transaction of a change they are told of. */
  async humanAdminIds(realmId: number, tx: Queryable = this.pg): Promise<number[]> {
    return (await tx.run(humanAdminIds, realmId)).map((r) => r.id);
  }

  users(realmId: number): Promise<ExportUser[]> {
    return this.pg.run(userSettings, realmId);
  }

  async messageCount(realmId: number, publicOnly: boolean): Promise<number> {
    const [{ count }] = await this.pg.run(messageCount, realmId, publicOnly);
    return count;
  }

  async uploadSpace(realmId: number): Promise<number> {
    const [{ used }] = await this.pg.run(uploadSpace, realmId);
    return used;
  }

  async messageIds(realmId: number, consenting: number[] | null): Promise<number[]> {
    const found = consenting === null ? await this.pg.run(publicMessageIds, realmId) : await this.pg.run(consentedMessageIds, realmId, consenting);
    return found.map((r) => r.id);
  }

  /** One batch of messages with the flags of `userIds` and every reaction. */
  async messages(ids: number[], userIds: number[]): Promise<{ messages: JsonRow[]; user_messages: JsonRow[]; reactions: JsonRow[] }> {
    const [messages, userMessages, reactions] = await Promise.all([
      this.pg.run(messagesByIds, ids),
      this.pg.run(userMessagesByIds, ids, userIds),
      this.pg.run(reactionsByIds, ids),
    ]);
    return { messages: messages.map((r) => r.row), user_messages: userMessages.map((r) => r.row), reactions: reactions.map((r) => r.row) };
  }

  async attachments(realmId: number, messageIds: number[]): Promise<{ attachments: JsonRow[]; attachment_messages: JsonRow[] }> {
    const attachments = (await this.pg.run(attachmentsOfMessages, realmId, messageIds)).map((r) => r.row);
    const links = attachments.length === 0 ? [] : await this.pg.run(attachmentLinks, attachments.map((a) => Number(a.id)), messageIds);
    return { attachments, attachment_messages: links.map((r) => r.row) };
  }
}

import { Prisma } from '@teamchat/db';

/**
 * SQL conditions on `messages` shared by the repositories' topic queries. Topics match case-insensitively
 * (the `(stream_id, lower(topic), id)` index serves them).
 */
export const inTopic = (alias: string, streamId: number, topic: string): Prisma.Sql =>
  Prisma.sql`${Prisma.raw(alias)}.stream_id = ${streamId} AND lower(${Prisma.raw(alias)}.topic) = lower(${topic})`;

/**
 * The messages of a channel a user may see. `visibleFrom` null means all of them (shared
 * history). With protected history: those from `visibleFrom` on (sent after the user
 * subscribed) and any older one the user received (a UserMessage row), as Zulip's
 * bulk_access_stream_messages_query decides by UserMessage rows.
 */
export function visibleTo(alias: string, userId: number, visibleFrom: number | null): Prisma.Sql {
  if (visibleFrom === null) return Prisma.sql`TRUE`;
  const m = Prisma.raw(alias);
  return Prisma.sql`(${m}.id >= ${visibleFrom} OR EXISTS (
    SELECT 1 FROM user_messages um WHERE um.user_id = ${userId} AND um.message_id = ${m}.id))`;
}

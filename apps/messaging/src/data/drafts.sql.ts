import { Prisma, columnsOf, statement, type DraftModel } from '@teamchat/db';

/** `drafts`' statements (DraftsRepository's hot reads; its writes stay on Prisma). */

/** A user's drafts, most recently edited first, at most $2 (POST /register's and GET /drafts'). */
export const newestDrafts = statement<DraftModel, [userId: number, limit: number]>(
  'messaging.newest_drafts',
  `SELECT ${columnsOf(Prisma.DraftScalarFieldEnum)} FROM drafts WHERE user_id = $1 ORDER BY last_edit_time DESC, id DESC LIMIT $2`,
);

import { Prisma, columnsOf, statement, type SavedSnippetModel } from '@teamchat/db';

/** `saved_snippets`' statements (SavedSnippetsRepository's reads; its writes stay on Prisma). */

/** The user's snippets, oldest first (POST /register's and GET /saved_snippets'). */
export const savedSnippetsOf = statement<SavedSnippetModel, [userId: number]>(
  'messaging.saved_snippets_of',
  `SELECT ${columnsOf(Prisma.SavedSnippetScalarFieldEnum)} FROM saved_snippets WHERE user_id = $1 ORDER BY id`,
);

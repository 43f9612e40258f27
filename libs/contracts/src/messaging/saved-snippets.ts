import { z } from 'zod';
import { LIMITS, param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { apiSchema, emptyResponse, int } from '../api/api-schemas';

/** Zulip's SavedSnippet.MAX_TITLE_LENGTH. */
export const MAX_SAVED_SNIPPET_TITLE_LENGTH = 60;

/** A saved snippet as GET /saved_snippets and the `saved_snippets` events show it (Zulip's SavedSnippet.to_api_dict). */
export const savedSnippetSchema = apiSchema(
  'SavedSnippet',
  z.object({
    id: int(),
    title: z.string(),
    content: z.string(),
    /** Unix seconds. */
    date_created: int(),
  }),
);
export type SavedSnippetRecord = z.infer<typeof savedSnippetSchema>;

/** Stripped, at least one character, at most the limit (Zulip's StringConstraints). */
const title = () => z.string().trim().min(1).max(MAX_SAVED_SNIPPET_TITLE_LENGTH);
const content = () => z.string().trim().min(1).max(LIMITS.maxMessageLength);

export const listSavedSnippets = defineApiCommand('messaging', 'list_saved_snippets', {
  route: 'GET /saved_snippets',
  summary: "The caller's saved snippets, oldest first.",
  params: {},
  response: z.object({ saved_snippets: z.array(savedSnippetSchema) }),
});

export const createSavedSnippetParams = {
  title: param.string(title()),
  content: param.string(content()),
};

export const createSavedSnippet = defineApiCommand('messaging', 'create_saved_snippet', {
  route: 'POST /saved_snippets',
  summary: 'Saves a snippet of the caller’s.',
  params: createSavedSnippetParams,
  response: z.object({ saved_snippet_id: int() }),
});

export const savedSnippetPathParams = {
  saved_snippet_id: param.int(),
};

export const editSavedSnippetParams = {
  ...savedSnippetPathParams,
  title: param.string(title()).optional(),
  content: param.string(content()).optional(),
};

export const editSavedSnippet = defineApiCommand('messaging', 'edit_saved_snippet', {
  route: 'PATCH /saved_snippets/{saved_snippet_id}',
  summary: 'Changes the title or content of a saved snippet of the caller’s.',
  params: editSavedSnippetParams,
  response: emptyResponse,
});

export const deleteSavedSnippet = defineApiCommand('messaging', 'delete_saved_snippet', {
  route: 'DELETE /saved_snippets/{saved_snippet_id}',
  summary: 'Deletes a saved snippet of the caller’s.',
  params: savedSnippetPathParams,
  response: emptyResponse,
});

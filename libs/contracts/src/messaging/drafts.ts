import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand, defineCommand } from '../command';
import { apiSchema, emptyResponse, int } from '../api/api-schemas';

export type DraftType = '' | 'stream' | 'private';

/** A draft as GET /drafts and the `drafts` events show it (Zulip's Draft.to_dict). */
export const draftSchema = apiSchema(
  'Draft',
  z.object({
    id: int(),
    type: z.enum(['', 'stream', 'private']),
    /** Channel draft: the one channel ID; direct draft: the other users' IDs; unaddressed: empty. */
    to: z.array(int()),
    topic: z.string(),
    content: z.string(),
    /** Unix seconds of the last edit. */
    timestamp: int(),
  }),
);
export type DraftRecord = z.infer<typeof draftSchema>;

/** The latest instant Zulip can store (datetime's year 9999), in Unix seconds. */
export const MAX_DRAFT_TIMESTAMP = 253402300799;

/**
 * A draft as clients send it (Zulip's DraftData): no `id`, no other keys. `content` is stripped
 * and must not be blank; `timestamp` may be fractional and defaults to now.
 */
export const draftInputSchema = z
  .object({
    type: z.enum(['', 'stream', 'private']),
    to: z.array(z.number().int()),
    topic: z.string(),
    content: z.string().trim().min(1),
    timestamp: z.number().max(MAX_DRAFT_TIMESTAMP).optional(),
  })
  .strict();
export type DraftInput = z.infer<typeof draftInputSchema>;

export const listDraftsParams = {};

export const listDrafts = defineApiCommand('messaging', 'list_drafts', {
  route: 'GET /drafts',
  summary: "The caller's drafts, most recently edited first.",
  params: listDraftsParams,
  response: z.object({ count: int(), drafts: z.array(draftSchema) }),
});

export const createDraftsParams = {
  drafts: param.json(z.array(draftInputSchema)),
};

export const createDrafts = defineApiCommand('messaging', 'create_drafts', {
  route: 'POST /drafts',
  summary: 'Creates drafts in bulk; `ids` in the order they were sent.',
  params: createDraftsParams,
  response: z.object({ ids: z.array(int()) }),
});

/** `draft_id` comes from the path (`/drafts/{draft_id}`); the gateway decodes it by this declaration. */
export const draftPathParams = {
  draft_id: param.int(),
};

export const editDraftParams = {
  ...draftPathParams,
  draft: param.json(draftInputSchema),
};

export const editDraft = defineApiCommand('messaging', 'edit_draft', {
  route: 'PATCH /drafts/{draft_id}',
  summary: "Replaces a draft of the caller's.",
  params: editDraftParams,
  response: emptyResponse,
});

export const deleteDraftParams = {
  ...draftPathParams,
};

export const deleteDraft = defineApiCommand('messaging', 'delete_draft', {
  route: 'DELETE /drafts/{draft_id}',
  summary: "Deletes a draft of the caller's.",
  params: deleteDraftParams,
  response: emptyResponse,
});

/**
 * Internal: deletes every stored draft of a user, as users-groups asks when the user turns
 * enable_drafts_synchronization off (no events: clients keep their local copies).
 */
export const deleteUserDrafts = defineCommand<{ realmId: number; userId: number }, { deleted: number }>(
  'messaging',
  'delete_user_drafts',
  z.object({ realmId: z.number().int(), userId: z.number().int() }),
);

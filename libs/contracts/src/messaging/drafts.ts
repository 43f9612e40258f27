import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand, defineCommand } from '../command';

export type DraftType = '' | 'stream' | 'private';

/** A draft as GET /drafts and the `drafts` events show it (Zulip's Draft.to_dict). */
export interface DraftRecord {
  id: number;
  type: DraftType;
  /** Channel draft: the one channel ID; direct draft: the other users' IDs; unaddressed: empty. */
  to: number[];
  topic: string;
  content: string;
  /** Unix seconds of the last edit. */
  timestamp: number;
}

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

/** GET /drafts: the caller's drafts, most recently edited first. */
export const listDrafts = defineApiCommand<typeof listDraftsParams, { count: number; drafts: DraftRecord[] }>(
  'messaging',
  'list_drafts',
  listDraftsParams,
);

export const createDraftsParams = {
  drafts: param.json(z.array(draftInputSchema)),
};

/** POST /drafts: creates drafts in bulk; `ids` in the order they were sent. */
export const createDrafts = defineApiCommand<typeof createDraftsParams, { ids: number[] }>(
  'messaging',
  'create_drafts',
  createDraftsParams,
);

/** `draft_id` comes from the path (`/drafts/{draft_id}`); the gateway decodes it by this declaration. */
export const draftPathParams = {
  draft_id: param.int(),
};

export const editDraftParams = {
  ...draftPathParams,
  draft: param.json(draftInputSchema),
};

/** PATCH /drafts/{draft_id}: replaces a draft of the caller's. */
export const editDraft = defineApiCommand<typeof editDraftParams, Record<string, never>>('messaging', 'edit_draft', editDraftParams);

export const deleteDraftParams = {
  ...draftPathParams,
};

/** DELETE /drafts/{draft_id}. */
export const deleteDraft = defineApiCommand<typeof deleteDraftParams, Record<string, never>>(
  'messaging',
  'delete_draft',
  deleteDraftParams,
);

/**
 * Internal: deletes every stored draft of a user, as users-groups asks when the user turns
 * enable_drafts_synchronization off (no events: clients keep their local copies).
 */
export const deleteUserDrafts = defineCommand<{ realmId: number; userId: number }, { deleted: number }>(
  'messaging',
  'delete_user_drafts',
  z.object({ realmId: z.number().int(), userId: z.number().int() }),
);

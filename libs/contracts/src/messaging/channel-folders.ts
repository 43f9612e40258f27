import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { apiSchema, emptyResponse, int } from '../api/api-schemas';
import { clientEventSchema, defineEvent } from '../event';

/** A channel folder as GET /channel_folders, POST /register and the `channel_folder` events show it (Zulip's ChannelFolder). */
export const channelFolderSchema = apiSchema(
  'ChannelFolder',
  z.object({
    id: int(),
    name: z.string(),
    description: z.string(),
    /** The description rendered from Markdown ("" for an empty one). */
    rendered_description: z.string(),
    /** Null once the creator's account is gone. */
    creator_id: int().nullable(),
    /** Unix seconds. */
    date_created: int(),
    is_archived: z.boolean(),
    /** Position in the organization's list: lower first; new folders go last. */
    order: int(),
  }),
);
export type ChannelFolderRecord = z.output<typeof channelFolderSchema>;

/**
 * The texts arrive as they are: the lengths (LIMITS, as POST /register serves them), blanks and
 * characters are checked by messaging after the administrator check, as Zulip does. A null byte
 * in the name reaches messaging, which refuses it as an invalid character (Zulip's text).
 */
export const createChannelFolderParams = {
  name: param.string().allowNullBytes(),
  description: param.string(),
};

export const createChannelFolder = defineApiCommand('messaging', 'create_channel_folder', {
  route: 'POST /channel_folders/create',
  summary: "Creates a channel folder, last in the organization's order (administrators only).",
  params: createChannelFolderParams,
  response: z.object({ channel_folder_id: int() }),
});

export const listChannelFoldersParams = {
  include_archived: param.bool().default(false),
};

export const listChannelFolders = defineApiCommand('messaging', 'list_channel_folders', {
  route: 'GET /channel_folders',
  summary: "The organization's channel folders (archived ones when asked), in their order.",
  params: listChannelFoldersParams,
  response: z.object({ channel_folders: z.array(channelFolderSchema) }),
});

export const reorderChannelFoldersParams = {
  /** Every folder id of the organization, archived ones included, each once. */
  order: param.intList(),
};

export const reorderChannelFolders = defineApiCommand('messaging', 'reorder_channel_folders', {
  route: 'PATCH /channel_folders',
  summary: "Sets the order of all the organization's channel folders (administrators only).",
  params: reorderChannelFoldersParams,
  response: emptyResponse,
});

export const updateChannelFolderParams = {
  channel_folder_id: param.int(),
  name: param.string().allowNullBytes().optional(),
  description: param.string().optional(),
  is_archived: param.bool().optional(),
};

export const updateChannelFolder = defineApiCommand('messaging', 'update_channel_folder', {
  route: 'PATCH /channel_folders/{channel_folder_id}',
  summary: 'Renames, describes, archives or unarchives a channel folder (administrators only).',
  params: updateChannelFolderParams,
  response: emptyResponse,
});

export const ChannelFolderEvents = {
  /** `channel_folder` add, update and reorder events, to every active user of the organization. */
  channelFolderChanged: defineEvent('messaging', 'channel_folder_changed', clientEventSchema),
};

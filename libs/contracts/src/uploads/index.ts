import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { apiSchema, emptyResponse, int } from '../api/api-schemas';
import { defineEndpoint } from '../api/endpoint';

/**
 * The uploads service's endpoints. The ones that carry or return a file's bytes are HTTP routes
 * of the uploads service itself, reached through the gateway's proxy (see docs/architecture.md,
 * Uploads); they are declared here with `defineEndpoint` for the document. The others are
 * ordinary commands.
 */

/** POST /user_uploads (zerver/views/upload.py upload_file_backend): one file, multipart. */
export const uploadFile = defineEndpoint({
  route: 'POST /user_uploads',
  summary: 'Uploads one file (multipart form data) and answers the URL it is served at.',
  params: {},
  response: z.object({
    /** Deprecated alias of `url` (Zulip feature level 272). */
    uri: z.string(),
    url: z.string(),
    /** The stored (sanitised) name, which may differ from the URL's last segment. */
    filename: z.string(),
  }),
});

/**
 * POST /realm/emoji/{emoji_name} (zerver/views/realm_emoji.py upload_emoji): one image file,
 * multipart, resized to 64x64 (animated images stay animated, with a still PNG beside them);
 * users-groups checks the name and the caller and adds the emoji.
 */
export const uploadCustomEmoji = defineEndpoint({
  route: 'POST /realm/emoji/{emoji_name}',
  summary: 'Uploads a custom emoji (one image file, multipart form data) under this name.',
  params: { emoji_name: param.string() },
  response: emptyResponse,
});

/** POST /users/me/avatar (zerver/views/user_settings.py set_avatar_backend): one image, resized to 100 and 500 pixels. */
export const setAvatar = defineEndpoint({
  route: 'POST /users/me/avatar',
  summary: "Uploads the caller's avatar (one image file, multipart form data) and answers its URL.",
  params: {},
  response: z.object({ avatar_url: z.string() }),
});

/** DELETE /users/me/avatar (delete_avatar_backend): back to Gravatar (or the default image); the files are removed. */
export const deleteAvatar = defineEndpoint({
  route: 'DELETE /users/me/avatar',
  summary: "Removes the caller's uploaded avatar and answers the Gravatar (or default) URL that replaces it.",
  params: {},
  response: z.object({ avatar_url: z.string() }),
});

/**
 * POST /realm/icon (zerver/views/realm_icon.py upload_icon): administrators; one image, at most
 * max_icon_file_size_mib, resized to 100x100 (cropped to the centre). Answers the icon's new URL.
 */
export const uploadRealmIcon = defineEndpoint({
  route: 'POST /realm/icon',
  summary: "Uploads the organization's icon (one image file, multipart form data; administrators) and answers its URL.",
  params: {},
  response: z.object({ icon_url: z.string() }),
});

/** DELETE /realm/icon (delete_icon_backend): back to the default icon; answers its URL. */
export const deleteRealmIcon = defineEndpoint({
  route: 'DELETE /realm/icon',
  summary: "Goes back to the default organization icon (administrators) and answers its URL.",
  params: {},
  response: z.object({ icon_url: z.string() }),
});

/** The `night` parameter of the logo endpoints: the dark theme's logo rather than the light one. */
export const realmLogoParams = { night: param.bool() };

/**
 * POST /realm/logo (zerver/views/realm_logo.py upload_logo): administrators; one image, at most
 * max_logo_file_size_mib, scaled down to fit 800x100.
 */
export const uploadRealmLogo = defineEndpoint({
  route: 'POST /realm/logo',
  summary: "Uploads the organization's wide logo, or with `night` its dark-theme logo (one image file, multipart form data; administrators).",
  params: realmLogoParams,
  response: emptyResponse,
});

/** DELETE /realm/logo (delete_logo_backend): back to the default logo. */
export const deleteRealmLogo = defineEndpoint({
  route: 'DELETE /realm/logo',
  summary: "Goes back to the default wide logo, or with `night` the default dark-theme logo (administrators).",
  params: realmLogoParams,
  response: emptyResponse,
});

/** Where avatars and custom emoji are served, without credentials (Zulip's /user_avatars/). */
export const USER_AVATARS_PATH = '/user_avatars';

/** GET /user_uploads/{realm_id_str}/{filename} under /api/v1: a URL that needs no credentials for a minute. */
export const getFileTemporaryUrl = defineEndpoint({
  route: 'GET /user_uploads/{realm_id_str}/{filename+}',
  summary: 'A temporary URL, valid for 60 seconds, that serves the file without credentials.',
  params: { realm_id_str: param.int(), filename: param.string() },
  response: z.object({ url: z.string() }),
});

export const attachmentSchema = apiSchema(
  'Attachment',
  z.object({
    id: int(),
    name: z.string(),
    path_id: z.string(),
    size: int(),
    /** Milliseconds since the epoch. */
    create_time: int(),
    messages: z.array(z.object({ id: int(), date_sent: int() })),
  }),
);
export type AttachmentRecord = z.infer<typeof attachmentSchema>;

export const listAttachments = defineApiCommand('uploads', 'list_attachments', {
  route: 'GET /attachments',
  summary: "The caller's uploaded files, with the messages that link them, and the organization's upload space used.",
  params: {},
  response: z.object({ attachments: z.array(attachmentSchema), upload_space_used: int() }),
});

export const removeAttachment = defineApiCommand('uploads', 'remove_attachment', {
  route: 'DELETE /attachments/{attachment_id}',
  summary: 'Deletes one of the caller’s uploaded files.',
  params: { attachment_id: param.int() },
  response: emptyResponse,
});

/** Where the tus protocol is served (not an operation of the document: tus is its own protocol). */
export const TUS_PATH = '/api/v1/tus';

/** The path ids a message's raw content links (`/user_uploads/<realm>/<xx>/<random>/<name>`), relative or absolute. */
export function linkedPathIds(content: string): string[] {
  const found = new Set<string>();
  for (const match of content.matchAll(/\/user_uploads\/(\d+\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/[^\s)\]>"'?#]+)/g)) {
    found.add(decodeURIComponentSafe(match[1]));
  }
  return [...found];
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
export * from './caller-header';
export * from './realm-export';

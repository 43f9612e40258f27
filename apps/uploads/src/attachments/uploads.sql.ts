import { statement } from '@teamchat/db';

/**
 * The uploads service's SQL: each statement named and prepared once per connection. Sizes are
 * BIGINT in the table and come back as numbers (`::float8`; files are far below 2^53 bytes).
 */

export interface AttachmentRow {
  id: number;
  realmId: number;
  ownerId: number;
  pathId: string;
  fileName: string;
  size: number;
  contentType: string;
  createTime: Date;
}

const ATTACHMENT_COLUMNS = `a.id, a.realm_id AS "realmId", a.owner_id AS "ownerId", a.path_id AS "pathId", a.file_name AS "fileName",
  a.size::float8 AS size, a.content_type AS "contentType", a.create_time AS "createTime"`;

export const insertAttachment = statement<{ id: number }, [realmId: number, ownerId: number, pathId: string, fileName: string, size: number, contentType: string]>(
  'uploads.insert_attachment',
  `INSERT INTO attachments (realm_id, owner_id, path_id, file_name, size, content_type) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
);

export const attachmentByPath = statement<AttachmentRow & { messageIds: number[] }, [pathId: string]>(
  'uploads.attachment_by_path',
  `SELECT ${ATTACHMENT_COLUMNS}, COALESCE(array_agg(am.message_id ORDER BY am.message_id DESC) FILTER (WHERE am.message_id IS NOT NULL), '{}') AS "messageIds"
     FROM attachments a LEFT JOIN attachment_messages am ON am.attachment_id = a.id
    WHERE a.path_id = $1 GROUP BY a.id`,
);

export const attachmentsByPaths = statement<AttachmentRow, [realmId: number, pathIds: string[]]>(
  'uploads.attachments_by_paths',
  `SELECT ${ATTACHMENT_COLUMNS} FROM attachments a WHERE a.realm_id = $1 AND a.path_id = ANY($2::text[])`,
);

export const ownAttachments = statement<AttachmentRow & { messages: { id: number; date_sent: number }[] }, [ownerId: number]>(
  'uploads.own_attachments',
  `SELECT ${ATTACHMENT_COLUMNS},
          COALESCE(json_agg(json_build_object('id', am.message_id, 'date_sent', (extract(epoch FROM am.date_sent) * 1000)::bigint)
                   ORDER BY am.message_id) FILTER (WHERE am.message_id IS NOT NULL), '[]') AS messages
     FROM attachments a LEFT JOIN attachment_messages am ON am.attachment_id = a.id
    WHERE a.owner_id = $1 GROUP BY a.id ORDER BY a.id`,
);

export const realmSpaceUsed = statement<{ used: number }, [realmId: number]>(
  'uploads.realm_space_used',
  `SELECT COALESCE(sum(size), 0)::float8 AS used FROM attachments WHERE realm_id = $1`,
);

export const deleteOwnAttachment = statement<{ pathId: string }, [id: number, ownerId: number]>(
  'uploads.delete_own_attachment',
  `DELETE FROM attachments WHERE id = $1 AND owner_id = $2 RETURNING path_id AS "pathId"`,
);

export const linkAttachments = statement<{ attachmentId: number }, [attachmentIds: number[], messageId: number, dateSent: Date]>(
  'uploads.link_attachments',
  `INSERT INTO attachment_messages (attachment_id, message_id, date_sent)
   SELECT unnest($1::int[]), $2, $3 ON CONFLICT DO NOTHING RETURNING attachment_id AS "attachmentId"`,
);

/** A resumable upload in progress (`tus_uploads`): its length, how much is stored, and where. */
export interface TusUploadRow {
  id: string;
  size: number;
  offset: number;
  metadata: Record<string, string | null>;
  parts: string[];
  createdAt: Date;
}

const TUS_COLUMNS = `id, size::float8 AS size, "offset"::float8 AS "offset", metadata, parts, created_at AS "createdAt"`;

export const insertTusUpload = statement<{ id: string }, [id: string, size: number, metadata: string]>(
  'uploads.insert_tus_upload',
  `INSERT INTO tus_uploads (id, size, metadata) VALUES ($1, $2, $3::jsonb) RETURNING id`,
);

export const tusUploadById = statement<TusUploadRow, [id: string]>('uploads.tus_upload_by_id', `SELECT ${TUS_COLUMNS} FROM tus_uploads WHERE id = $1`);

/** Appends a stored part, only if the upload is still at `offset` (no other write got there first). */
export const appendTusPart = statement<{ offset: number }, [id: string, offset: number, written: number, part: string]>(
  'uploads.append_tus_part',
  `UPDATE tus_uploads SET "offset" = "offset" + $3, parts = array_append(parts, $4)
    WHERE id = $1 AND "offset" = $2 RETURNING "offset"::float8 AS "offset"`,
);

export const deleteTusUpload = statement<{ parts: string[] }, [id: string]>(
  'uploads.delete_tus_upload',
  `DELETE FROM tus_uploads WHERE id = $1 RETURNING parts`,
);

/** Uploads begun before a time and never finished: removed with their parts. */
export const deleteTusUploadsBefore = statement<{ id: string; parts: string[] }, [before: Date]>(
  'uploads.delete_tus_uploads_before',
  `DELETE FROM tus_uploads WHERE created_at < $1 RETURNING id, parts`,
);

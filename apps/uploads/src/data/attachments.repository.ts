import { Injectable } from '@nestjs/common';
import { PgService, statement } from '@teamchat/db';

/**
 * The uploads service's SQL on attachments: each statement named and prepared once per
 * connection. Sizes are BIGINT in the table and come back as numbers (`::float8`; files are far
 * below 2^53 bytes).
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

/** An attachment with the messages that link it, newest first. */
export type LinkedAttachmentRow = AttachmentRow & { messageIds: number[] };

/** One of a user's attachments with the messages that link it (`date_sent` in Unix milliseconds). */
export type OwnAttachmentRow = AttachmentRow & { messages: { id: number; date_sent: number }[] };

const ATTACHMENT_COLUMNS = `a.id, a.realm_id AS "realmId", a.owner_id AS "ownerId", a.path_id AS "pathId", a.file_name AS "fileName",
  a.size::float8 AS size, a.content_type AS "contentType", a.create_time AS "createTime"`;

const insertAttachment = statement<{ id: number }, [realmId: number, ownerId: number, pathId: string, fileName: string, size: number, contentType: string]>(
  'uploads.insert_attachment',
  `INSERT INTO attachments (realm_id, owner_id, path_id, file_name, size, content_type) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
);

const attachmentByPath = statement<LinkedAttachmentRow, [pathId: string]>(
  'uploads.attachment_by_path',
  `SELECT ${ATTACHMENT_COLUMNS}, COALESCE(array_agg(am.message_id ORDER BY am.message_id DESC) FILTER (WHERE am.message_id IS NOT NULL), '{}') AS "messageIds"
     FROM attachments a LEFT JOIN attachment_messages am ON am.attachment_id = a.id
    WHERE a.path_id = $1 GROUP BY a.id`,
);

const attachmentsByPaths = statement<AttachmentRow, [realmId: number, pathIds: string[]]>(
  'uploads.attachments_by_paths',
  `SELECT ${ATTACHMENT_COLUMNS} FROM attachments a WHERE a.realm_id = $1 AND a.path_id = ANY($2::text[])`,
);

const ownAttachments = statement<OwnAttachmentRow, [ownerId: number]>(
  'uploads.own_attachments',
  `SELECT ${ATTACHMENT_COLUMNS},
          COALESCE(json_agg(json_build_object('id', am.message_id, 'date_sent', (extract(epoch FROM am.date_sent) * 1000)::bigint)
                   ORDER BY am.message_id) FILTER (WHERE am.message_id IS NOT NULL), '[]') AS messages
     FROM attachments a LEFT JOIN attachment_messages am ON am.attachment_id = a.id
    WHERE a.owner_id = $1 GROUP BY a.id ORDER BY a.id`,
);

const realmSpaceUsed = statement<{ used: number }, [realmId: number]>(
  'uploads.realm_space_used',
  `SELECT COALESCE(sum(size), 0)::float8 AS used FROM attachments WHERE realm_id = $1`,
);

const deleteOwnAttachment = statement<{ pathId: string }, [id: number, ownerId: number]>(
  'uploads.delete_own_attachment',
  `DELETE FROM attachments WHERE id = $1 AND owner_id = $2 RETURNING path_id AS "pathId"`,
);

const linkAttachments = statement<{ attachmentId: number }, [attachmentIds: number[], messageId: number, dateSent: Date]>(
  'uploads.link_attachments',
  `INSERT INTO attachment_messages (attachment_id, message_id, date_sent)
   SELECT unnest($1::int[]), $2, $3 ON CONFLICT DO NOTHING RETURNING attachment_id AS "attachmentId"`,
);

/**
 * The uploads service's repository: `attachments` (one row per file) and `attachment_messages`
 * (which messages link which file), which it owns.
 */
@Injectable()
export class AttachmentsRepository {
  constructor(private readonly pg: PgService) {}

  /** Records a stored file; answers its id. */
  async insert(realmId: number, ownerId: number, file: { pathId: string; fileName: string; size: number; contentType: string }): Promise<number> {
    const [{ id }] = await this.pg.run(insertAttachment, realmId, ownerId, file.pathId, file.fileName, file.size, file.contentType);
    return id;
  }

  /** The attachment stored under a path id, of any organization, with the messages that link it. */
  async byPath(pathId: string): Promise<LinkedAttachmentRow | null> {
    const [attachment] = await this.pg.run(attachmentByPath, pathId);
    return attachment ?? null;
  }

  /** The organization's attachments among these path ids. */
  inRealmByPaths(realmId: number, pathIds: string[]): Promise<AttachmentRow[]> {
    return this.pg.run(attachmentsByPaths, realmId, pathIds);
  }

  /** A user's attachments in id order, each with the messages that link it. */
  ownedBy(ownerId: number): Promise<OwnAttachmentRow[]> {
    return this.pg.run(ownAttachments, ownerId);
  }

  /** The bytes the organization's attachments take. */
  async spaceUsed(realmId: number): Promise<number> {
    const [{ used }] = await this.pg.run(realmSpaceUsed, realmId);
    return used;
  }

  /** Deletes one of the owner's attachments; answers its path id, null when they have no such attachment. */
  async deleteOwn(id: number, ownerId: number): Promise<string | null> {
    const [removed] = await this.pg.run(deleteOwnAttachment, id, ownerId);
    return removed ? removed.pathId : null;
  }

  /** Records that a message links these attachments (a link recorded before stays as it is). */
  async link(attachmentIds: number[], messageId: number, dateSent: Date): Promise<void> {
    await this.pg.run(linkAttachments, attachmentIds, messageId, dateSent);
  }
}

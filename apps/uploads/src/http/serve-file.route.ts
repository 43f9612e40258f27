import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Inject, Injectable } from '@nestjs/common';
import { REDIS, type RedisClient } from '@teamchat/platform';
import { ZulipError } from '@teamchat/zulip';
import parseRange from 'range-parser';
import { AttachmentAccess } from '../attachments/attachment-access';
import { isMediaType, isStorableText } from '../attachments/storable-text';
import { AttachmentsRepository, type AttachmentRow } from '../data/attachments.repository';
import { FileStorage } from '../storage/file-storage';
import type { Caller } from './caller';

export const fileNotFound = (): ZulipError => new ZulipError('BAD_REQUEST', 'This file does not exist or has been deleted.', {}, 404);
export const fileForbidden = (): ZulipError => new ZulipError('BAD_REQUEST', 'You are not authorized to view this file.', {}, 403);

/** Types a browser may show in place (Zulip's INLINE_MIME_TYPES); anything else is downloaded. */
const INLINE_TYPES = new Set([
  'application/pdf',
  'audio/aac', 'audio/flac', 'audio/mp4', 'audio/mpeg', 'audio/ogg', 'audio/wav', 'audio/webm',
  'image/apng', 'image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/webp',
  'text/plain',
  'video/mp4', 'video/ogg', 'video/quicktime', 'video/webm',
]);

/** A temporary URL's lifetime (Zulip: 60 s). */
const TEMPORARY_URL_SECONDS = 60;

/** RFC 6266: an ASCII fallback name and the exact one, percent-encoded. */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/**
 * The files: GET /user_uploads/{realm}/{path} with credentials, GET /user_uploads/temporary/…
 * without (a minute-long token from GET /api/v1/user_uploads/…). Correct Content-Type,
 * Content-Disposition (inline only for safe types), and single-range requests.
 */
@Injectable()
export class ServeFileRoute {
  constructor(
    private readonly attachments: AttachmentsRepository,
    private readonly access: AttachmentAccess,
    private readonly storage: FileStorage,
    @Inject(REDIS) private readonly redis: RedisClient,
  ) {}

  /** The attachment the caller asks for, when they may read it (404 unknown, of another organization or no path Postgres could hold; 403 not theirs to see). */
  async readable(caller: Caller, realmId: number, rest: string): Promise<AttachmentRow> {
    const user = caller.user;
    if (!user) throw new ZulipError('UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    if (realmId !== caller.realm.id || !isStorableText(rest)) throw fileNotFound();
    const attachment = await this.attachments.byPath(`${realmId}/${rest}`);
    if (!attachment) throw fileNotFound();
    if (!(await this.access.mayRead(user, attachment))) throw fileForbidden();
    return attachment;
  }

  async temporaryUrl(attachment: AttachmentRow): Promise<{ url: string }> {
    const token = randomBytes(24).toString('base64url');
    await this.redis.set(`upload-token:${token}`, attachment.pathId, 'EX', TEMPORARY_URL_SECONDS);
    const name = attachment.pathId.split('/').pop()!;
    return { url: `/user_uploads/temporary/${token}/${encodeURIComponent(name)}` };
  }

  async byToken(token: string): Promise<AttachmentRow> {
    const pathId = await this.redis.get(`upload-token:${token}`);
    const attachment = pathId ? await this.attachments.byPath(pathId) : null;
    if (!attachment) throw fileNotFound();
    return attachment;
  }

  async send(req: IncomingMessage, res: ServerResponse, attachment: AttachmentRow): Promise<void> {
    // A stored type no header may carry (a row written before types were checked) is served as bytes.
    const type = isMediaType(attachment.contentType) ? attachment.contentType : 'application/octet-stream';
    const inline = INLINE_TYPES.has(type.split(';')[0].trim().toLowerCase());
    const headers: Record<string, string | number> = {
      'Content-Type': type,
      'Content-Disposition': contentDisposition(inline ? 'inline' : 'attachment', attachment.fileName),
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'private, max-age=86400',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; media-src 'self'; style-src 'unsafe-inline'",
    };
    const size = attachment.size;
    const rangeHeader = req.headers.range;
    let range: { start: number; end: number } | undefined;
    if (rangeHeader) {
      const ranges = parseRange(size, rangeHeader, { combine: true });
      if (ranges === -1) {
        res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}`, 'Content-Length': 0 });
        res.end();
        return;
      }
      // Malformed (-2) or several ranges: the whole file, as many servers answer.
      if (ranges !== -2 && ranges.length === 1 && ranges.type === 'bytes') range = ranges[0];
    }
    const body = await this.storage.read(attachment.pathId, size === 0 ? undefined : range);
    if (range) {
      res.writeHead(206, { ...headers, 'Content-Range': `bytes ${range.start}-${range.end}/${size}`, 'Content-Length': range.end - range.start + 1 });
    } else {
      res.writeHead(200, { ...headers, 'Content-Length': size });
    }
    if (req.method === 'HEAD') {
      body.destroy();
      res.end();
      return;
    }
    await pipeline(body, res);
  }
}

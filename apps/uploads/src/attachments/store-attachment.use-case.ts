import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { LIMITS, ZulipError } from '@teamchat/zulip';
import { lookup } from 'mime-types';
import type { Readable } from 'node:stream';
import { AttachmentsRepository } from '../data/attachments.repository';
import { FileStorage } from '../storage/file-storage';
import { sanitizeName } from './sanitize-name';
import { isMediaType } from './storable-text';

/** The largest file, in bytes: the `max_file_upload_size_mib` POST /register announces. */
export const MAX_FILE_BYTES = LIMITS.maxFileUploadSizeMib * 1024 * 1024;

export const fileTooLarge = (): ZulipError =>
  new ZulipError('BAD_REQUEST', `File is larger than this server's configured maximum upload size (${LIMITS.maxFileUploadSizeMib} MiB).`);

export const quotaExceeded = (): ZulipError =>
  new ZulipError('REALM_UPLOAD_QUOTA', "Upload would exceed your organization's upload quota.");

export interface StoredAttachment {
  id: number;
  pathId: string;
  url: string;
  filename: string;
}

/** Zulip's path id: `<realm>/<2 hex>/<24 url-safe random>/<sanitised name>`. */
export function newPathId(realmId: number, name: string): string {
  return `${realmId}/${randomBytes(1).toString('hex')}/${randomBytes(18).toString('base64url')}/${name}`;
}

/**
 * The Content-Type to store: the client's, unless it is missing, generic, or nothing a header may
 * carry or the column hold (a tus `filetype` is any text), then the name's.
 */
export function contentTypeFor(name: string, given: string | undefined): string {
  if (given && given !== 'application/octet-stream' && isMediaType(given)) return given;
  return lookup(name) || 'application/octet-stream';
}

/**
 * Stores one uploaded file and records its attachment row. The bytes stream to storage; the
 * caller's stream is counted on the way and must end within MAX_FILE_BYTES (the HTTP layer
 * stops it at the limit). The quota is checked before (nothing may be added once it is
 * reached) and after (the size is known only then); a refused file is deleted.
 */
@Injectable()
export class StoreAttachment {
  constructor(
    private readonly attachments: AttachmentsRepository,
    private readonly storage: FileStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async checkQuota(realmId: number, adding: number): Promise<void> {
    const quota = this.config.REALM_UPLOAD_QUOTA_MIB * 1024 * 1024;
    if (quota <= 0) return;
    const used = await this.attachments.spaceUsed(realmId);
    if (used + adding > quota) throw quotaExceeded();
  }

  /** Writes `body` (already counted and limited by the caller) under a new path id. */
  async write(realmId: number, originalName: string, body: Readable, givenType: string | undefined) {
    const filename = sanitizeName(originalName);
    const contentType = contentTypeFor(filename, givenType);
    const pathId = newPathId(realmId, storedName(filename));
    await this.storage.write(pathId, body, contentType);
    return { pathId, filename, contentType };
  }

  /** Records a written file; deletes it instead when the quota would be exceeded. */
  async record(owner: { id: number; realmId: number }, file: { pathId: string; filename: string; contentType: string }, size: number): Promise<StoredAttachment> {
    try {
      await this.checkQuota(owner.realmId, size);
      const id = await this.attachments.insert(owner.realmId, owner.id, { pathId: file.pathId, fileName: file.filename, size, contentType: file.contentType });
      return { id, pathId: file.pathId, url: `/user_uploads/${file.pathId}`, filename: file.filename };
    } catch (error) {
      await this.storage.delete(file.pathId).catch(() => undefined);
      throw error;
    }
  }
}

/**
 * The name as the path's last segment: at most 200 UTF-8 bytes (file systems allow 255), the
 * extension kept. Zulip does not shorten; a longer name would fail to store.
 */
function storedName(name: string): string {
  if (Buffer.byteLength(name) <= 200) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 20 ? name.slice(dot) : '';
  let stem = name.slice(0, name.length - extension.length);
  while (Buffer.byteLength(stem + extension) > 200) stem = stem.slice(0, -1);
  return stem + extension;
}

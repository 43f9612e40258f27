import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { EmailVisibility, UsersGroups, Uploads } from '@teamchat/contracts';
import { LOGGER } from '@teamchat/platform';
import { userAvatarPath } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { EXPORTED_TABLES, OrganizationDataReadonlyRepository, type ExportUser, type JsonRow } from '../data/organization-data.readonly.repository';
import { RealmExportsRepository, type RealmExportRow } from '../data/realm-exports.repository';
import { FileStorage } from '../storage/file-storage';
import { consentingUserIds, privacyOf } from './export-consent';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  MANIFEST,
  MESSAGE_BATCH,
  archiveWriter,
  messageFileName,
  readAll,
  type ArchivedFile,
  type Manifest,
} from './export-archive';
import { RealmExportNotices } from './realm-export-notices';

/** Zulip's STREAM_ASSIGNMENT_COLORS (a few): a scrubbed subscription gets one at random. */
const COLORS = ['#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5', '#f5ce6e', '#c2726a'];

const random = (bytes: number) => randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x');

/**
 * The realm-export worker's job (zerver/lib/export.py do_export_realm): the organization's
 * rows and files, as the export type allows, into one tar.gz in the file storage.
 *
 * - Users come without secrets (API keys and passwords are never read). Users whose private
 *   data is not exported (everyone in a public export; those who do not consent in a consent
 *   export) have their settings reset to the organization's defaults (their address visibility
 *   kept) and their subscriptions' personal properties scrubbed; in a consent export they come
 *   deactivated, and a user whose address is visible to nobody gets a made-up one (and, in a
 *   public export, comes deactivated).
 * - Messages: public channels' (public export), plus what consenting users could read
 *   (consent export: see the readonly repository); flags only of consenting users in a consent
 *   export; every reaction to them; the attachments they link.
 * - Files: those attachments, every custom emoji's images, uploaded avatars.
 */
@Injectable()
export class WriteRealmExport {
  constructor(
    private readonly exports: RealmExportsRepository,
    private readonly organization: OrganizationDataReadonlyRepository,
    private readonly storage: FileStorage,
    private readonly notices: RealmExportNotices,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(job: Uploads.RealmExportJob): Promise<void> {
    const row = await this.exports.byId(job.exportId);
    if (!row || !(await this.exports.start(row.id))) return; // finished, failed or deleted already
    // The outcome is recorded with the event telling the administrators (one transaction).
    try {
      const archive = await this.write(row, job.realmUrl);
      const recorded = await this.notices.change(row.realmId, job.realmUrl, (tx) => this.exports.succeed(row.id, archive, tx));
      if (!recorded) await this.storage.delete(archive.path).catch(() => undefined);
      this.logger.info({ exportId: row.id, realmId: row.realmId, size: archive.size }, 'organization export written');
    } catch (err) {
      this.logger.error({ err, exportId: row.id, realmId: row.realmId }, 'organization export failed');
      await this.notices.change(row.realmId, job.realmUrl, (tx) => this.exports.fail(row.id, tx));
    }
  }

  private async write(row: RealmExportRow, realmUrl: string) {
    const realmId = row.realmId;
    const full = row.exportType === Uploads.EXPORT_FULL_WITH_CONSENT;
    const users = await this.organization.users(realmId);
    const exportable = full ? consentingUserIds(users) : new Set<number>();

    const tables: Record<string, JsonRow[]> = {};
    for (const name of EXPORTED_TABLES) tables[name] = await this.organization.table(name, realmId);
    const byId = new Map(users.map((u) => [u.id, u]));
    const fakeDomain = new URL(realmUrl).hostname;
    tables.users = tables.users.map((user) => scrubUser(user, byId.get(Number(user.id))!, exportable.has(Number(user.id)), full, fakeDomain));
    tables.subscriptions = tables.subscriptions.map((sub) => (exportable.has(Number(sub.user_id)) ? sub : scrubSubscription(sub)));

    const messageIds = await this.organization.messageIds(realmId, full ? [...exportable] : null);
    const flagsOf = full ? [...exportable] : users.map((u) => u.id);
    const { attachments, attachment_messages } = await this.organization.attachments(realmId, messageIds);
    tables.attachments = attachments;
    tables.attachment_messages = attachment_messages;

    const files: ArchivedFile[] = [];
    const images = new Map<string, Buffer>();
    for (const attachment of attachments) {
      const pathId = String(attachment.path_id);
      if (await this.storage.exists(pathId)) files.push({ archive: `uploads/${pathId}`, kind: 'attachment', path_id: pathId, size: Number(attachment.size) });
    }
    const addImage = async (path: string, file: ArchivedFile) => {
      const key = `avatars/${path}`;
      if (!(await this.storage.exists(key))) return;
      images.set(file.archive, await readAll(await this.storage.read(key)));
      files.push(file);
    };
    for (const emoji of tables.realm_emoji) {
      const file = String(emoji.file_name);
      const path = UsersGroups.customEmojiPath(realmId, file);
      const id = Number(emoji.id);
      await addImage(path, { archive: `avatars/${path}`, kind: 'emoji', emoji_id: id, file });
      await addImage(`${path}.original`, { archive: `avatars/${path}.original`, kind: 'emoji', emoji_id: id, file: `${file}.original` });
      if (emoji.is_animated) {
        const still = UsersGroups.customEmojiStillPath(realmId, file);
        await addImage(still, { archive: `avatars/${still}`, kind: 'emoji', emoji_id: id, file: `still/${still.slice(still.lastIndexOf('/') + 1)}` });
      }
    }
    for (const user of tables.users.filter((u) => u.avatar_source === 'U')) {
      const path = userAvatarPath(Number(user.id), realmId);
      for (const suffix of ['.png', '-medium.png', '.original']) {
        await addImage(`${path}${suffix}`, { archive: `avatars/${path}${suffix}`, kind: 'avatar', user_id: Number(user.id), suffix });
      }
    }

    const batches: number[][] = [];
    for (let i = 0; i < messageIds.length; i += MESSAGE_BATCH) batches.push(messageIds.slice(i, i + MESSAGE_BATCH));
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      export_type: row.exportType,
      exported_at: Math.floor(Date.now() / 1000),
      realm_id: realmId,
      tables,
      message_files: batches.map((_, i) => messageFileName(i + 1)),
      files,
    };

    const name = `zulip-export-${random(6).toLowerCase()}`;
    const path = `exports/${realmId}/${random(18)}/${name}.tar.gz`;
    const writer = archiveWriter(name);
    const stored = this.storage.write(path, writer.body, 'application/gzip');
    try {
      await writer.addJson(MANIFEST, manifest);
      for (const [i, ids] of batches.entries()) await writer.addJson(messageFileName(i + 1), await this.organization.messages(ids, flagsOf));
      for (const file of files) {
        const image = images.get(file.archive);
        if (image) await writer.add(file.archive, image);
        else if (file.kind === 'attachment') await writer.addStream(file.archive, file.size, await this.storage.read(file.path_id));
      }
      const { size, sha256 } = await writer.finish();
      await stored;
      const stats = {
        ...Object.fromEntries(Object.entries(tables).map(([table, rows]) => [table, rows.length])),
        messages: messageIds.length,
        files: files.length,
      };
      return { path, size, sha256, stats };
    } catch (error) {
      writer.abort(error as Error);
      await stored.catch(() => undefined);
      await this.storage.delete(path).catch(() => undefined);
      throw error;
    }
  }
}

/** A user as exported: private settings kept only when exportable (Zulip's custom_fetch_user_profile). */
function scrubUser(row: JsonRow, user: ExportUser, exportable: boolean, full: boolean, fakeDomain: string): JsonRow {
  if (exportable) return row;
  const { visibility } = privacyOf(user);
  const scrubbed: JsonRow = { ...row, settings: { email_address_visibility: visibility } };
  if (full && row.is_active) scrubbed.is_active = false;
  if (visibility === EmailVisibility.NOBODY) {
    scrubbed.delivery_email = `exported-user-${randomBytes(16).toString('hex')}@${fakeDomain}`;
    if (!full) scrubbed.is_active = false;
  }
  return scrubbed;
}

/** A subscription of a user whose private data is not exported: its personal properties at their defaults, a random colour. */
function scrubSubscription(row: JsonRow): JsonRow {
  return {
    ...row,
    color: COLORS[Math.floor(Math.random() * COLORS.length)],
    is_muted: false,
    pin_to_top: false,
    desktop_notifications: null,
    audible_notifications: null,
    push_notifications: null,
    email_notifications: null,
    wildcard_mentions_notify: null,
  };
}

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { TUS_PATH } from '@teamchat/contracts';
import { LOGGER, requestBodyRead } from '@teamchat/platform';
import { LIMITS, ZulipError } from '@teamchat/zulip';
import { EVENTS, Server, type Upload } from '@tus/server';
import type { Logger } from 'pino';
import { NodeRequest, sendNodeResponse } from 'srvx/node';
import { MAX_FILE_BYTES, StoreAttachment, contentTypeFor } from '../attachments/store-attachment.use-case';
import { sanitizeName } from '../attachments/sanitize-name';
import { storableText } from '../attachments/storable-text';
import { TusUploadsRepository } from '../data/tus-uploads.repository';
import { FileStorage } from '../storage/file-storage';
import { StorageTusStore } from '../storage/storage-tus-store';
import { CALLER_HEADER, callerOf } from './caller';

/** A tus refusal as Zulip's tusd hooks answer it: a JSON `{message}` with a specific 4xx. */
const refuse = (status_code: number, message: string) => ({ status_code, body: JSON.stringify({ message }) });

/** How often abandoned uploads (begun over a day ago, never finished) are removed. */
const EXPIRY_SWEEP_MS = 3600 * 1000;

/**
 * Resumable uploads (the tus 1.0 protocol: creation, creation-with-upload, offsets, HEAD,
 * termination) at /api/v1/tus,
 * with @tus/server. Parts are staged through the service's FileStorage with the upload's state
 * in Postgres (StorageTusStore), so any replica resumes any upload, on disk or on S3. At
 * creation the length must be given (411 otherwise) and fit the size limit (413) and the quota
 * (413); the uploader is recorded in the upload's metadata and only they may continue, inspect
 * or end it. On completion (by a PATCH, or at once by the creation request: a length of 0, or
 * all the data in the POST) the file moves to attachment storage under a new path id, the
 * attachment row is written, and the answer carries `url` and `filename` (Zulip's pre-finish
 * hook). Metadata is stored with NUL dropped (Postgres refuses it).
 */
@Injectable()
export class TusUploads implements OnModuleInit, OnApplicationShutdown {
  readonly server: Server;
  private readonly datastore: StorageTusStore;
  /** The upload each creation request made (to remove it if that request fails). */
  private readonly creating = new WeakMap<Request, string>();
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly store: StoreAttachment,
    storage: FileStorage,
    uploads: TusUploadsRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.datastore = new StorageTusStore(storage, uploads);
    this.server = new Server({
      path: TUS_PATH,
      datastore: this.datastore,
      relativeLocation: true,
      namingFunction: () => randomId(),
      generateUrl: (_req, { path: base, id }) => `${base}/${id}`,
      // An id this store never made names no upload (and never reaches a storage key).
      getFileIdFromRequest: (_req, lastPath) => (lastPath && StorageTusStore.isUploadId(lastPath) ? lastPath : undefined),
      onUploadCreate: async (req, upload) => {
        const caller = callerFrom(req);
        if (upload.sizeIsDeferred || upload.size === undefined) throw refuse(411, 'SizeIsDeferred is not supported');
        if (upload.size > MAX_FILE_BYTES) {
          throw refuse(413, `Uploaded file is larger than the allowed limit of ${LIMITS.maxFileUploadSizeMib} MiB`);
        }
        try {
          await this.store.checkQuota(caller.realm.id, upload.size);
        } catch (error) {
          if (error instanceof ZulipError) throw refuse(413, error.message);
          throw error;
        }
        // Postgres stores the metadata (jsonb): a NUL or lone surrogate in any of it would fail the creation.
        const metadata = Object.fromEntries(Object.entries(upload.metadata ?? {}).map(([key, value]) => [storableText(key), value === null ? null : storableText(value)]));
        this.creating.set(req, upload.id);
        return { metadata: { ...metadata, owner: String(caller.user.id), realm: String(caller.realm.id) } };
      },
      onIncomingRequest: async (req, uploadId) => {
        if (req.method === 'POST' || req.method === 'OPTIONS') return;
        const caller = callerFrom(req);
        const upload = await this.datastore.getUpload(uploadId).catch(() => undefined);
        if (upload && !isUploader(upload, caller.user.id)) throw refuse(404, 'The file for this url was not found');
      },
      onUploadFinish: async (req, upload) => {
        const caller = callerFrom(req);
        const result = await this.finish(caller, upload);
        const headers: Record<string, string> = { 'Content-Type': 'application/json' };
        if (req.method === 'POST') {
          // Completed by its creation request (Upload-Length 0, or creation-with-upload): tusd
          // keeps the Location of a 201 on the 200 its pre-finish hook makes, and tus clients read
          // it. @tus/server reads the upload again after this, so it goes once the answer is made.
          headers.Location = `${TUS_PATH}/${upload.id}`;
        } else {
          await this.removeFinished(upload.id);
        }
        return { status_code: 200, headers, body: JSON.stringify(result) };
      },
      onResponseError: (req, error) => {
        // A creation request that fails after the upload was made (its data past the length, the
        // client gone, the finish failed) answers no Location: no one could go on with it, so it goes.
        const created = req.method === 'POST' ? this.creating.get(req) : undefined;
        if (created) void this.datastore.remove(created).catch(() => undefined);
        // Failures that are no tus refusal (theirs carry a status) are ours: logged, and a 500 that tells nothing of the cause.
        if (!(error instanceof Error) || (error as Error & { status_code?: number }).status_code !== undefined) return undefined;
        this.logger.error({ err: error, requestId: req.headers.get('x-request-id') ?? '', method: req.method }, 'unexpected tus fault');
        return { status_code: 500, body: JSON.stringify({ message: 'Internal server error' }) };
      },
    });
    this.server.on(EVENTS.POST_FINISH, (req: Request, _res: Response, upload: Upload) => {
      if (req.method === 'POST') void this.removeFinished(upload.id);
    });
  }

  /** A finished upload's parts (its file is in attachment storage by now); its state stays for HEAD. Never fails. */
  private async removeFinished(id: string): Promise<void> {
    await this.datastore.finished(id).catch((error: unknown) => this.logger.warn({ err: error, upload: id }, 'finished resumable upload not removed'));
  }

  onModuleInit(): void {
    this.sweeper = setInterval(() => {
      this.datastore
        .deleteExpired()
        .then((removed) => removed > 0 && this.logger.info({ removed }, 'abandoned resumable uploads removed'))
        .catch((error: unknown) => this.logger.warn({ err: error }, 'resumable upload sweep failed'));
    }, EXPIRY_SWEEP_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }

  /**
   * @tus/server's own handle, but the answer waits for the request's body: a refusal made
   * before reading it (a wrong offset, an upload not found) would otherwise close the
   * connection under the gateway still streaming the body, which then loses the answer.
   */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (await this.alreadyComplete(req)) {
      // As tusd: a PATCH to a finished upload at its final offset has nothing to add (204), and
      // must not finish it, and make its attachment, twice.
      await requestBodyRead(req);
      res.writeHead(204, { 'Tus-Resumable': '1.0.0', 'Upload-Offset': req.headers['upload-offset'] ?? '' }).end();
      return;
    }
    const answer = await this.server.handleWeb(new NodeRequest({ req, res }));
    await requestBodyRead(req);
    await sendNodeResponse(res, answer);
  }

  /** A PATCH by its uploader, at the final offset, of an upload already complete. */
  private async alreadyComplete(req: IncomingMessage): Promise<boolean> {
    if (req.method !== 'PATCH') return false;
    const id = (req.url ?? '').split('?')[0].split('/').pop() ?? '';
    if (!StorageTusStore.isUploadId(id)) return false;
    const upload = await this.datastore.getUpload(id).catch(() => undefined);
    if (!upload || upload.size === undefined || upload.offset !== upload.size || req.headers['upload-offset'] !== String(upload.size)) return false;
    try {
      const userId = callerOf(req).user?.id;
      return userId !== undefined && isUploader(upload, userId);
    } catch {
      return false; // no caller: the tus server refuses it
    }
  }

  private async finish(caller: TusCaller, upload: Upload): Promise<{ url: string; filename: string }> {
    const given = storableText(upload.metadata?.filename ?? '');
    const filename = ['', '.', '..'].includes(given) ? 'uploaded-file' : given;
    const contentType = contentTypeFor(filename, upload.metadata?.filetype ?? undefined);
    const body = await this.datastore.read(upload.id);
    const file = await this.store.write(caller.realm.id, sanitizeName(filename, true), body, contentType);
    const attachment = await this.store.record(
      { id: caller.user.id, realmId: caller.realm.id },
      { pathId: file.pathId, filename, contentType },
      upload.size ?? upload.offset,
    );
    return { url: attachment.url, filename };
  }
}

/** Only the uploader (recorded in the metadata at creation) may continue, inspect or end an upload. */
const isUploader = (upload: Upload, userId: number): boolean => upload.metadata?.owner === String(userId);

type TusCaller = { realm: { id: number }; user: { id: number } };

function callerFrom(req: Request): TusCaller {
  const header = req.headers.get(CALLER_HEADER);
  let caller: ReturnType<typeof callerOf> | undefined;
  try {
    caller = header ? callerOf({ headers: { [CALLER_HEADER]: header } } as unknown as IncomingMessage) : undefined;
  } catch {
    caller = undefined; // a header the gateway did not write
  }
  if (!caller?.user) throw refuse(401, 'Unauthenticated upload');
  return { realm: caller.realm, user: caller.user };
}

function randomId(): string {
  return randomBytes(16).toString('hex');
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Injectable } from '@nestjs/common';
import { ZulipError, isAdminRole, mustBeAdmin } from '@teamchat/zulip';
import { RealmExportsRepository } from '../data/realm-exports.repository';
import type { Caller } from '../http/caller';
import { contentDisposition, fileNotFound } from '../http/serve-file.route';
import { FileStorage } from '../storage/file-storage';

/**
 * GET /user_uploads/exports/<realm>/<random>/<file>.tar.gz: a finished export's archive, to an
 * administrator of its organization only (credentials or the browser session, as for any file
 * under /user_uploads/); anything else is no file.
 */
@Injectable()
export class ServeRealmExport {
  constructor(
    private readonly exports: RealmExportsRepository,
    private readonly storage: FileStorage,
  ) {}

  async send(req: IncomingMessage, res: ServerResponse, caller: Caller, rest: string): Promise<void> {
    if (!caller.user) throw new ZulipError('UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    const match = /^(\d+)\/[A-Za-z0-9]+\/(zulip-export-[a-z0-9]+\.tar\.gz)$/.exec(rest);
    if (!match || Number(match[1]) !== caller.realm.id) throw fileNotFound();
    const found = await this.exports.finishedByPath(`exports/${rest}`);
    if (!found || found.realmId !== caller.realm.id) throw fileNotFound();
    if (!isAdminRole(caller.user.role)) throw mustBeAdmin();
    const body = await this.storage.read(`exports/${rest}`);
    res.writeHead(200, {
      'Content-Type': 'application/gzip',
      'Content-Length': found.size,
      'Content-Disposition': contentDisposition('attachment', match[2]),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
    });
    if (req.method === 'HEAD') {
      body.destroy();
      res.end();
      return;
    }
    await pipeline(body, res);
  }
}

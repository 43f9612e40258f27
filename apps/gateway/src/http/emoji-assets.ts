import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Injectable } from '@nestjs/common';
import { emojiCatalogue, emojiCodeOf } from '@teamchat/zulip';
import { Router, type Request, type Response } from 'express';
import { EXACT_ROUTING } from './exact-routing';

/** The emoji data file's path: what `server_emoji_data_url` names (Zulip's own path). */
export const EMOJI_API_DATA_PATH = '/static/generated/emoji/emoji_api_data.json';

/** What one emoji-datasource-google entry says that the image routes use. */
interface GoogleEntry {
  unified: string;
  image: string;
  has_img_google?: boolean;
}

const YEAR = 'public, max-age=31536000, immutable';
// The data file's URL has no version in it, so it is cached for a day and revalidated by ETag.
const DAY = 'public, max-age=86400';

/**
 * Zulip's emoji assets: `/static/generated/emoji/emoji_api_data.json` (`{code_to_names}`, from
 * the server's own emoji table, so every name a client offers is one the server accepts) and the
 * Google emoji images (emoji-datasource-google, 64 px PNG) under Zulip's two paths,
 * `images-google-64/<code>.png` and `images/emoji/unicode/<code>.png`, with `<code>` Zulip's
 * emoji code (no FE0F). Images are cached for a year; the data file for a day, with an ETag.
 */
@Injectable()
export class EmojiAssets {
  readonly router = Router(EXACT_ROUTING);
  private readonly data: Buffer;
  private readonly etag: string;
  private readonly files = new Map<string, string>();

  constructor() {
    this.data = Buffer.from(JSON.stringify({ code_to_names: emojiCatalogue().namesByCode() }));
    this.etag = `"${createHash('sha256').update(this.data).digest('base64url').slice(0, 27)}"`;
    const root = path.dirname(require.resolve('emoji-datasource-google/package.json'));
    const dir = path.join(root, 'img', 'google', '64');
    const entries = JSON.parse(readFileSync(path.join(root, 'emoji.json'), 'utf8')) as GoogleEntry[];
    for (const entry of entries) {
      if (entry.has_img_google === false) continue;
      this.files.set(emojiCodeOf(entry.unified), path.join(dir, entry.image));
    }
    this.router.get(EMOJI_API_DATA_PATH, (req, res) => this.serveData(req, res));
    this.router.get('/static/generated/emoji/images-google-64/:file', (req, res) => this.serveImage(req, res));
    this.router.get('/static/generated/emoji/images/emoji/unicode/:file', (req, res) => this.serveImage(req, res));
  }

  private serveData(req: Request, res: Response): void {
    if (req.header('if-none-match') === this.etag) {
      res.writeHead(304, { ETag: this.etag, 'Cache-Control': DAY });
      res.end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': this.data.length,
      'Cache-Control': DAY,
      ETag: this.etag,
      'Access-Control-Allow-Origin': '*',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : this.data);
  }

  private serveImage(req: Request, res: Response): void {
    const file = String(req.params.file ?? '');
    const match = /^([0-9a-f-]+)\.png$/.exec(file);
    const found = match ? this.files.get(match[1]) : undefined;
    if (!found) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end('Not found\n');
      return;
    }
    res.sendFile(found, { headers: { 'Cache-Control': YEAR, 'X-Content-Type-Options': 'nosniff' }, etag: false, lastModified: true });
  }
}

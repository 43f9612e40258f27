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
  private built?: { data: Buffer; etag: string; files: Map<string, string> };

  constructor() {
    this.router.get(EMOJI_API_DATA_PATH, (req, res) => this.serveData(req, res));
    this.router.get('/static/generated/emoji/images-google-64/:file', (req, res) => this.serveImage(req, res));
    this.router.get('/static/generated/emoji/images/emoji/unicode/:file', (req, res) => this.serveImage(req, res));
  }

  /** Built on the first request, not at start: most gateway replicas restart far more often than a client fetches emoji. */
  private get assets(): { data: Buffer; etag: string; files: Map<string, string> } {
    if (this.built) return this.built;
    const data = Buffer.from(JSON.stringify({ code_to_names: emojiCatalogue().namesByCode() }));
    const etag = `"${createHash('sha256').update(data).digest('base64url').slice(0, 27)}"`;
    const root = path.dirname(require.resolve('emoji-datasource-google/package.json'));
    const dir = path.join(root, 'img', 'google', '64');
    const files = new Map<string, string>();
    for (const entry of JSON.parse(readFileSync(path.join(root, 'emoji.json'), 'utf8')) as GoogleEntry[]) {
      if (entry.has_img_google !== false) files.set(emojiCodeOf(entry.unified), path.join(dir, entry.image));
    }
    return (this.built = { data, etag, files });
  }

  private serveData(req: Request, res: Response): void {
    const { data, etag } = this.assets;
    if (req.header('if-none-match') === etag) {
      res.writeHead(304, { ETag: etag, 'Cache-Control': DAY });
      res.end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': data.length,
      'Cache-Control': DAY,
      ETag: etag,
      'Access-Control-Allow-Origin': '*',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : data);
  }

  private serveImage(req: Request, res: Response): void {
    const file = String(req.params.file ?? '');
    const match = /^([0-9a-f-]+)\.png$/.exec(file);
    const found = match ? this.assets.files.get(match[1]) : undefined;
    if (!found) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end('Not found\n');
      return;
    }
    res.sendFile(found, { headers: { 'Cache-Control': YEAR, 'X-Content-Type-Options': 'nosniff' }, etag: false, lastModified: true });
  }
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { LOGGER } from '@teamchat/platform';
import express, { Router, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { Sessions } from '../auth/sessions';
import { EXACT_ROUTING } from './exact-routing';

/** Where `tools/build.js` puts the built web app (apps/web): dist/web, beside dist/apps. */
export const WEB_DIST_DIR = path.resolve(__dirname, '../../../../web');

/**
 * The app's page may load only what the gateway serves: its own scripts and styles (no inline
 * ones, no eval), images from here, data: and Gravatar, requests to here; it is never framed.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: https://secure.gravatar.com",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The web app (apps/web) at `/`: its page, never cached (a new build is picked up at the next
 * load) and under a strict Content-Security-Policy, and its content-hashed files under /assets/,
 * cached for a year. The page also sets the `csrftoken` cookie the login form sends back
 * (BrowserLogin). Navigation within the app is in the URL's fragment (`#narrow/...`), so `/` is
 * its only page.
 */
@Injectable()
export class WebApp {
  readonly router = Router(EXACT_ROUTING);
  private page: Buffer | null = null;

  constructor(
    private readonly sessions: Sessions,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.router.get('/', (req: Request, res: Response) => this.servePage(req, res));
    this.router.use(
      '/assets',
      express.static(path.join(WEB_DIST_DIR, 'assets'), {
        index: false,
        redirect: false,
        dotfiles: 'ignore',
        etag: false,
        setHeaders: (res) => {
          res.setHeader('Cache-Control', IMMUTABLE);
          res.setHeader('X-Content-Type-Options', 'nosniff');
        },
      }),
    );
  }

  private servePage(req: Request, res: Response): void {
    const page = this.load();
    if (!page) {
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end('The web app is not built: run `node tools/build.js` (npm start does).\n');
      return;
    }
    this.sessions.ensureCsrfCookie(req, res);
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': page.length,
      'Cache-Control': 'no-store',
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
    });
    res.end(req.method === 'HEAD' ? undefined : page);
  }

  private load(): Buffer | null {
    if (this.page) return this.page;
    try {
      this.page = readFileSync(path.join(WEB_DIST_DIR, 'index.html'));
    } catch {
      this.logger.warn({ dir: WEB_DIST_DIR }, 'web app not built; / answers 503');
    }
    return this.page;
  }
}

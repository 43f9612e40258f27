import { Injectable } from '@nestjs/common';
import { UNKNOWN_USER_AVATAR_PATH } from '@teamchat/contracts';
import { Router, type Request, type Response } from 'express';
import { EXACT_ROUTING } from './exact-routing';

/** A plain grey 64 px square (120 bytes, made with sharp): the avatar of "Unknown user". */
const UNKNOWN_USER_AVATAR = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAMAAACdt4HsAAAAA1BMVEW4vsSKeBftAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAG0lEQVR42u3BgQAAAADDoPlT3+AEVQEAAAB8AxBAAAG9PLePAAAAAElFTkSuQmCC',
  'base64',
);

/** The images of Zulip's `/static/images/` that answers name, served by the gateway (cached for a day). */
@Injectable()
export class StaticImages {
  readonly router = Router(EXACT_ROUTING);

  constructor() {
    this.router.get(UNKNOWN_USER_AVATAR_PATH, (req: Request, res: Response) => {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': UNKNOWN_USER_AVATAR.length, 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' });
      res.end(req.method === 'HEAD' ? undefined : UNKNOWN_USER_AVATAR);
    });
  }
}

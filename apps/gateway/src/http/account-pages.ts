import { Inject, Injectable } from '@nestjs/common';
import { Push, UsersGroups } from '@teamchat/contracts';
import { CommandClient, LOGGER } from '@teamchat/platform';
import { escapeHtml, ZulipError } from '@teamchat/zulip';
import { Router, type Request, type Response } from 'express';
import { EXACT_ROUTING } from './exact-routing';
import type { Logger } from 'pino';
import type { ApiRequest } from './request-context';
import { sendSuccess } from './success-envelope.interceptor';
import { sendError } from './zulip-exception.filter';

function page(res: Response, status: number, title: string, body: string): void {
  const html =
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p></main></body></html>\n`;
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(html) });
  res.end(html);
}

/**
 * The pages a person reaches from a link in a mail, outside /api/v1 and without API
 * credentials (the key in the link is the proof): GET /accounts/confirm_new_email/<key>
 * applies a pending email change through users-groups. A browser gets a small HTML page; a
 * client that asks for JSON (Accept) gets Zulip's envelope. A link that leads nowhere answers
 * 404, a change the rules no longer allow 400, and nothing changes.
 */
@Injectable()
export class AccountPages {
  readonly router = Router(EXACT_ROUTING);

  constructor(
    private readonly commands: CommandClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    // A HEAD (a link checker's) must not use the key up: only a GET applies the change.
    this.router.head(`${UsersGroups.CONFIRM_NEW_EMAIL_PATH}/:key`, (_req: Request, res: Response) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end();
    });
    this.router.get(`${UsersGroups.CONFIRM_NEW_EMAIL_PATH}/:key`, (req: Request, res: Response) => {
      void this.confirmNewEmail(req as ApiRequest, res);
    });
    // A missed-message email's unsubscribe link (push keeps the keys); again, only a GET acts.
    this.router.head(`${Push.UNSUBSCRIBE_MISSED_MESSAGES_PATH}/:key`, (_req: Request, res: Response) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end();
    });
    this.router.get(`${Push.UNSUBSCRIBE_MISSED_MESSAGES_PATH}/:key`, (req: Request, res: Response) => {
      void this.unsubscribe(req as ApiRequest, res);
    });
  }

  private async unsubscribe(req: ApiRequest, res: Response): Promise<void> {
    const json = req.accepts(['html', 'json']) === 'json';
    try {
      const done = await this.commands.call(Push.unsubscribeMissedMessages, {
        host: req.header('host') ?? '',
        key: String(req.params.key),
        requestId: req.ctx.requestId,
      }, { within: req.ctx.time });
      if (json) sendSuccess(res, {}, []);
      else page(res, 200, 'Unsubscribed', `You will no longer receive emails about missed messages from ${done.realmName}.`);
    } catch (error) {
      if (res.writableEnded) return;
      if (json || !(error instanceof ZulipError)) {
        sendError(req, res, error, this.logger);
        return;
      }
      page(res, error.status, 'Invalid link', error.message);
    }
  }

  private async confirmNewEmail(req: ApiRequest, res: Response): Promise<void> {
    const json = req.accepts(['html', 'json']) === 'json';
    try {
      const done = await this.commands.call(UsersGroups.confirmEmailChange, {
        host: req.header('host') ?? '',
        key: String(req.params.key),
        requestId: req.ctx.requestId,
      }, { within: req.ctx.time });
      if (json) sendSuccess(res, { old_email: done.oldEmail, new_email: done.newEmail }, []);
      else page(res, 200, 'Email address changed', `The email address for your account in ${done.realmName} has changed from ${done.oldEmail} to ${done.newEmail}.`);
    } catch (error) {
      if (res.writableEnded) return;
      if (json || !(error instanceof ZulipError)) {
        sendError(req, res, error, this.logger);
        return;
      }
      page(res, error.status, error.status === 404 ? 'Invalid link' : 'Email address not changed', error.message);
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { UsersGroups } from '@teamchat/contracts';
import { CommandClient, LOGGER } from '@teamchat/platform';
import { Router, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { ApiRateLimit } from '../auth/api-rate-limit';
import { CredentialCache } from '../auth/credential-cache';
import { Sessions } from '../auth/sessions';
import { commandEnvelope } from './endpoint-request';
import { EXACT_ROUTING } from './exact-routing';
import type { ApiRequest } from './request-context';
import { sendSuccess } from './success-envelope.interceptor';
import { sendError } from './zulip-exception.filter';

export const LOGIN_PATH = '/accounts/login';
export const LOGOUT_PATH = '/accounts/logout';

/**
 * The web app's login and logout, as Zulip's web login: POST /accounts/login takes `username` and
 * `password` form fields and, when users-groups' fetch_api_key accepts them (the same command,
 * with the same budget of wrong guesses per username, as POST /api/v1/fetch_api_key), starts a
 * session (Sessions: an HttpOnly session cookie and a `csrftoken` cookie) and answers
 * `{ user_id, email }`; the API key stays in the gateway. Both need the CSRF token in
 * `X-CSRFToken`: before a login the `csrftoken` cookie the app's page set (double submit), after
 * it the session's. POST /accounts/logout ends the session and clears the cookies.
 */
@Injectable()
export class BrowserLogin {
  readonly router = Router(EXACT_ROUTING);

  constructor(
    private readonly credentials: CredentialCache,
    private readonly sessions: Sessions,
    private readonly rateLimit: ApiRateLimit,
    private readonly commands: CommandClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.router.post(LOGIN_PATH, (req: Request, res: Response) => void this.login(req as ApiRequest, res));
    this.router.post(LOGOUT_PATH, (req: Request, res: Response) => void this.logout(req as ApiRequest, res));
  }

  private async login(req: ApiRequest, res: Response): Promise<void> {
    try {
      this.sessions.checkLoginCsrf(req);
      await this.rateLimit.apply(req, res); // per IP: nobody is logged in yet
      const host = req.headers.host ?? '';
      req.ctx.realm = await this.credentials.realm(host, req.ctx.time);
      const key = await this.commands.call(UsersGroups.fetchApiKey, commandEnvelope(req, UsersGroups.fetchApiKey), { within: req.ctx.time });
      const { realm, user } = await this.credentials.authenticate(host, null, key.api_key, req.ctx.time);
      await this.sessions.start(res, { realmId: realm.id, userId: user.id, apiKey: key.api_key });
      sendSuccess(res, { user_id: user.id, email: user.email, full_name: user.fullName }, req.ctx.ignored);
    } catch (error) {
      if (!res.writableEnded) sendError(req, res, error, this.logger);
    }
  }

  private async logout(req: ApiRequest, res: Response): Promise<void> {
    try {
      const session = await this.sessions.read(req);
      if (session) {
        this.sessions.checkCsrf(req, session);
        await this.sessions.end(session);
      }
      this.sessions.clearCookies(res);
      sendSuccess(res, {}, []);
    } catch (error) {
      if (!res.writableEnded) sendError(req, res, error, this.logger);
    }
  }
}

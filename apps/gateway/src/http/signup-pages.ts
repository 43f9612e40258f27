import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { UsersGroups } from '@teamchat/contracts';
import { APP_CONFIG, CommandClient, LOGGER, type AppConfig } from '@teamchat/platform';
import { escapeHtml, ZulipError } from '@teamchat/zulip';
import { Router, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { ApiRateLimit } from '../auth/api-rate-limit';
import { CSRF_COOKIE, SESSION_SECONDS, cookiesOf } from '../auth/sessions';
import { EXACT_ROUTING } from './exact-routing';
import type { ApiRequest } from './request-context';
import { sendError } from './zulip-exception.filter';

/** Django's name for the form field that repeats the CSRF cookie. */
export const CSRF_FIELD = 'csrfmiddlewaretoken';

interface Field {
  name: string;
  label: string;
  type: 'text' | 'email' | 'password' | 'hidden';
  value?: string;
}

/**
 * Sign-up as Zulip's web pages do it, server-rendered and without the web app (issue 27):
 *
 * - `GET /accounts/do_confirm/<key>`: an invitation's or a confirmed address's link; the
 *   registration form (full name, password) for the address the key is for.
 * - `POST /accounts/register/` with `key`: makes the account (users-groups' register_account);
 *   the page then points to the login. With `email` instead: open sign-up's first step.
 * - `GET /accounts/register/`: open sign-up's address form, when the organization allows it.
 * - `GET /join/<key>/`, `POST /join/<key>/`: a reusable invitation link's address form; the
 *   address then gets a confirmation link to the registration form.
 *
 * The forms are protected against cross-site posts by the double-submitted `csrftoken` cookie
 * (the page sets it and repeats it in a hidden field). A POST counts against the per-IP API
 * limit. A refusal is the same page with its message and Zulip's status; a JSON client
 * (`Accept: application/json`) gets Zulip's error envelope.
 */
@Injectable()
export class SignupPages {
  readonly router = Router(EXACT_ROUTING);
  private readonly secure: boolean;

  constructor(
    private readonly commands: CommandClient,
    private readonly rateLimit: ApiRateLimit,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.secure = new URL(config.EXTERNAL_URL).protocol === 'https:';
    const confirm = `${UsersGroups.DO_CONFIRM_PATH}/:key`;
    const join = `${UsersGroups.JOIN_PATH}/:key/`;
    this.router.get(confirm, (req: Request, res: Response) => void this.registrationForm(req as ApiRequest, res));
    this.router.post(UsersGroups.REGISTER_PATH, (req: Request, res: Response) => void this.register(req as ApiRequest, res));
    this.router.get(UsersGroups.REGISTER_PATH, (req: Request, res: Response) => void this.addressForm(req as ApiRequest, res, undefined));
    this.router.get(join, (req: Request, res: Response) => void this.addressForm(req as ApiRequest, res, String(req.params.key)));
    this.router.post(join, (req: Request, res: Response) => void this.requestRegistration(req as ApiRequest, res, String(req.params.key)));
  }

  private host(req: ApiRequest): string {
    return req.header('host') ?? '';
  }

  private async registrationForm(req: ApiRequest, res: Response, failure?: { status: number; message: string }): Promise<void> {
    const key = String(req.params.key ?? (req.body as Record<string, unknown> | undefined)?.key ?? '');
    try {
      const form = await this.commands.call(UsersGroups.registrationForm, { host: this.host(req), key }, { within: req.ctx.time });
      const token = this.csrfToken(req, res);
      this.page(
        res,
        failure?.status ?? 200,
        `Create your account in ${form.realmName}`,
        [`You are signing up as ${form.email}.`],
        {
          action: UsersGroups.REGISTER_PATH,
          submit: 'Sign up',
          error: failure?.message,
          fields: [
            { name: CSRF_FIELD, label: '', type: 'hidden', value: token },
            { name: 'key', label: '', type: 'hidden', value: key },
            { name: 'full_name', label: 'Full name', type: 'text', value: String((req.body as Record<string, unknown> | undefined)?.full_name ?? '') },
            { name: 'password', label: 'Password', type: 'password' },
          ],
        },
      );
    } catch (error) {
      this.refuse(req, res, error);
    }
  }

  private async register(req: ApiRequest, res: Response): Promise<void> {
    const body = (req.body ?? {}) as Record<string, unknown>;
    try {
      this.checkCsrf(req, body);
      await this.rateLimit.apply(req, res);
      if (typeof body.key !== 'string') {
        await this.requestRegistration(req, res, undefined);
        return;
      }
      const done = await this.commands.call(UsersGroups.registerAccount, {
        host: this.host(req),
        key: body.key,
        fullName: String(body.full_name ?? ''),
        password: String(body.password ?? ''),
        requestId: req.ctx.requestId,
      }, { within: req.ctx.time });
      if (this.wantsJson(req)) {
        res.status(200).json({ result: 'success', msg: '', user_id: done.userId, email: done.email });
        return;
      }
      this.page(res, 200, `Welcome to ${done.realmName}`, [`Your account ${done.email} is ready.`], undefined, { href: `${done.realmUrl}/`, text: 'Log in' });
    } catch (error) {
      // A form the rules refused (a weak password, a bad name) is shown again with the reason.
      if (!this.wantsJson(req) && error instanceof ZulipError && error.status === 400 && typeof body.key === 'string') {
        req.params.key = body.key;
        await this.registrationForm(req, res, { status: 400, message: error.message });
        return;
      }
      this.refuse(req, res, error);
    }
  }

  private async addressForm(req: ApiRequest, res: Response, multiuseKey: string | undefined): Promise<void> {
    try {
      const start = await this.commands.call(UsersGroups.signupStart, { host: this.host(req), ...(multiuseKey !== undefined ? { multiuseKey } : {}) }, { within: req.ctx.time });
      const token = this.csrfToken(req, res);
      this.page(res, 200, `Sign up for ${start.realmName}`, ['Enter your email address; we will send you a link to complete your registration.'], {
        action: multiuseKey !== undefined ? `${UsersGroups.JOIN_PATH}/${encodeURIComponent(multiuseKey)}/` : UsersGroups.REGISTER_PATH,
        submit: 'Sign up',
        fields: [
          { name: CSRF_FIELD, label: '', type: 'hidden', value: token },
          { name: 'email', label: 'Email', type: 'email' },
        ],
      });
    } catch (error) {
      this.refuse(req, res, error);
    }
  }

  private async requestRegistration(req: ApiRequest, res: Response, multiuseKey: string | undefined): Promise<void> {
    const body = (req.body ?? {}) as Record<string, unknown>;
    try {
      if (multiuseKey !== undefined) {
        this.checkCsrf(req, body);
        await this.rateLimit.apply(req, res);
      }
      const email = String(body.email ?? '');
      const start = await this.commands.call(UsersGroups.requestRegistration, {
        host: this.host(req),
        email,
        ...(multiuseKey !== undefined ? { multiuseKey } : {}),
        requestId: req.ctx.requestId,
      }, { within: req.ctx.time });
      if (this.wantsJson(req)) {
        res.status(200).json({ result: 'success', msg: '' });
        return;
      }
      this.page(res, 200, 'Check your email', [`We sent a link to ${email} to finish signing up for ${start.realmName}.`]);
    } catch (error) {
      this.refuse(req, res, error);
    }
  }

  /** The request's `csrftoken` cookie, or a new one set on the response. */
  private csrfToken(req: ApiRequest, res: Response): string {
    const existing = cookiesOf(req)[CSRF_COOKIE];
    if (existing && /^[A-Za-z0-9_-]{16,64}$/.test(existing)) return existing;
    const token = randomBytes(32).toString('base64url');
    const parts = [`${CSRF_COOKIE}=${token}`, 'Path=/', `Max-Age=${SESSION_SECONDS}`, 'SameSite=Lax'];
    if (this.secure) parts.push('Secure');
    res.append('Set-Cookie', parts.join('; '));
    return token;
  }

  /** Django's CSRF check for a form: the hidden field repeats the cookie. */
  private checkCsrf(req: ApiRequest, body: Record<string, unknown>): void {
    const cookie = cookiesOf(req)[CSRF_COOKIE];
    const field = body[CSRF_FIELD];
    if (!cookie || typeof field !== 'string' || field === '') throw new ZulipError('BAD_REQUEST', 'CSRF error: CSRF token missing.', {}, 403);
    if (field !== cookie) throw new ZulipError('BAD_REQUEST', 'CSRF error: CSRF token incorrect.', {}, 403);
  }

  private wantsJson(req: ApiRequest): boolean {
    return req.accepts(['html', 'json']) === 'json';
  }

  private refuse(req: ApiRequest, res: Response, error: unknown): void {
    if (res.writableEnded) return;
    if (this.wantsJson(req) || !(error instanceof ZulipError)) {
      sendError(req, res, error, this.logger);
      return;
    }
    this.page(res, error.status, error.status === 404 ? 'Invalid link' : 'Sign-up not possible', [error.message]);
  }

  private page(
    res: Response,
    status: number,
    title: string,
    paragraphs: string[],
    form?: { action: string; submit: string; fields: Field[]; error?: string },
    link?: { href: string; text: string },
  ): void {
    const inputs = (form?.fields ?? [])
      .map((field) =>
        field.type === 'hidden'
          ? `<input type="hidden" name="${field.name}" value="${escapeHtml(field.value ?? '')}">`
          : `<p><label>${escapeHtml(field.label)} <input type="${field.type}" name="${field.name}" value="${escapeHtml(field.value ?? '')}" required></label></p>`,
      )
      .join('');
    const html =
      `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main>` +
      `<h1>${escapeHtml(title)}</h1>` +
      paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('') +
      (form?.error ? `<p class="error" role="alert">${escapeHtml(form.error)}</p>` : '') +
      (form ? `<form method="post" action="${escapeHtml(form.action)}">${inputs}<button type="submit">${escapeHtml(form.submit)}</button></form>` : '') +
      (link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : '') +
      '</main></body></html>\n';
    res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(html), 'Cache-Control': 'no-store' });
    res.end(html);
  }
}

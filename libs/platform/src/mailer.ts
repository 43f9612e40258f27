import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from './config';
import { LOGGER } from './logger';

/** One message: plain text always, HTML beside it when given. */
export interface Mail {
  to: string;
  /** The display name of the sender; the address is NOREPLY_EMAIL_ADDRESS. */
  fromName: string;
  subject: string;
  text: string;
  html?: string;
}

type MailConfig = Pick<
  AppConfig,
  'EMAIL_HOST' | 'EMAIL_PORT' | 'EMAIL_HOST_USER' | 'EMAIL_HOST_PASSWORD' | 'EMAIL_USE_TLS' | 'NOREPLY_EMAIL_ADDRESS' | 'EXTERNAL_URL'
>;

/**
 * Outgoing mail through nodemailer. With EMAIL_HOST set, SMTP (Zulip's settings: STARTTLS
 * required when EMAIL_USE_TLS, login when EMAIL_HOST_USER is set); without, each message is
 * rendered as JSON and written to the log instead of being sent, so a local system works
 * without a mail server and its links can still be followed. A failed delivery throws.
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  /** Made at the first mail: nodemailer is loaded then, not at every service's start (a tenth of a second's CPU, and most never send). */
  private transport?: Promise<Transporter>;
  private readonly from: string;
  private readonly smtp: boolean;

  constructor(
    @Inject(APP_CONFIG) private readonly config: MailConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.smtp = config.EMAIL_HOST !== '';
    this.from = config.NOREPLY_EMAIL_ADDRESS || `noreply@${new URL(config.EXTERNAL_URL).hostname}`;
  }

  private async createTransport(): Promise<Transporter> {
    const { default: nodemailer } = await import('nodemailer');
    const config = this.config;
    return this.smtp
      ? nodemailer.createTransport({
          host: config.EMAIL_HOST,
          port: config.EMAIL_PORT,
          // Port 465 speaks TLS from the first byte; anything else upgrades with STARTTLS.
          secure: config.EMAIL_PORT === 465,
          requireTLS: config.EMAIL_USE_TLS,
          ignoreTLS: !config.EMAIL_USE_TLS,
          ...(config.EMAIL_HOST_USER ? { auth: { user: config.EMAIL_HOST_USER, pass: config.EMAIL_HOST_PASSWORD } } : {}),
          // Connections are kept and reused (a burst of missed-message emails would otherwise open one per mail).
          pool: true,
          maxConnections: 4,
          connectionTimeout: 5_000,
          greetingTimeout: 5_000,
          socketTimeout: 10_000,
        })
      : nodemailer.createTransport({ jsonTransport: true });
  }

  async send(mail: Mail): Promise<void> {
    const transport = await (this.transport ??= this.createTransport());
    const info = (await transport.sendMail({
      from: { name: mail.fromName, address: this.from },
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html !== undefined ? { html: mail.html } : {}),
    })) as { messageId?: string; message?: string };
    if (this.smtp) {
      this.logger.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'mail sent');
    } else {
      this.logger.info({ mail: JSON.parse(info.message ?? '{}') as unknown }, 'mail not sent (no EMAIL_HOST): logged instead');
    }
  }

  onApplicationShutdown(): void {
    void this.transport?.then((transport) => transport.close());
  }
}

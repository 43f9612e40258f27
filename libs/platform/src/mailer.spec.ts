import type { Logger } from 'pino';
import { MailSink } from '@teamchat/testing';
import { loadConfig } from './config';
import { Mailer } from './mailer';

/** A logger that keeps what it is given. */
function recordingLogger() {
  const lines: { fields: Record<string, unknown>; msg: string }[] = [];
  const logger = { info: (fields: Record<string, unknown>, msg: string) => lines.push({ fields, msg }) } as unknown as Logger;
  return { logger, lines };
}

const mail = {
  to: 'new@example.org',
  fromName: 'Zulip account security',
  subject: 'Vérifiez',
  text: `Open ${'https://org.example.test/accounts/confirm_new_email/'.padEnd(90, 'k')}`,
  html: '<p>Open it</p>',
};

describe('Mailer', () => {
  it('without EMAIL_HOST, writes each message to the log instead of sending it', async () => {
    const { logger, lines } = recordingLogger();
    const mailer = new Mailer(loadConfig({ EXTERNAL_URL: 'https://chat.example.test:8443' }), logger);
    await mailer.send(mail);
    expect(lines).toHaveLength(1);
    expect(lines[0].msg).toBe('mail not sent (no EMAIL_HOST): logged instead');
    expect(lines[0].fields.mail).toMatchObject({
      from: { address: 'noreply@chat.example.test', name: 'Zulip account security' },
      to: [{ address: 'new@example.org' }],
      subject: 'Vérifiez',
      text: mail.text,
      html: mail.html,
    });
    mailer.onApplicationShutdown();
  });

  it('with EMAIL_HOST, speaks SMTP to it, from NOREPLY_EMAIL_ADDRESS', async () => {
    const sink = await MailSink.start();
    try {
      const { logger, lines } = recordingLogger();
      const mailer = new Mailer(loadConfig({ ...sink.env(), NOREPLY_EMAIL_ADDRESS: 'robot@example.test' }), logger);
      await mailer.send(mail);
      const [received] = await sink.waitFor('new@example.org');
      expect(received).toMatchObject({ from: 'robot@example.test', to: ['new@example.org'], subject: 'Vérifiez', text: mail.text, html: mail.html });
      expect(received.headers.from).toBe('Zulip account security <robot@example.test>');
      expect(lines.map((line) => line.msg)).toEqual(['mail sent']);
      mailer.onApplicationShutdown();
    } finally {
      await sink.stop();
    }
  });

  it('fails when the server will not take the message', async () => {
    const sink = await MailSink.start({ refuse: () => true });
    try {
      const mailer = new Mailer(loadConfig(sink.env()), recordingLogger().logger);
      await expect(mailer.send(mail)).rejects.toThrow(/recipients were rejected/);
      mailer.onApplicationShutdown();
    } finally {
      await sink.stop();
    }
  });

  it('requires STARTTLS by default (EMAIL_USE_TLS), and will not send in the clear to a server without it', async () => {
    const sink = await MailSink.start();
    try {
      const env = { ...sink.env() } as Record<string, string>;
      delete env.EMAIL_USE_TLS;
      const mailer = new Mailer(loadConfig(env), recordingLogger().logger);
      await expect(mailer.send(mail)).rejects.toThrow(/STARTTLS/);
      expect(sink.mails).toEqual([]);
      mailer.onApplicationShutdown();
    } finally {
      await sink.stop();
    }
  });
});

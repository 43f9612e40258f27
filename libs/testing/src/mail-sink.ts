import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as the sink received it: envelope, headers, and the decoded text and HTML parts. */
export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) as text. */
function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BQbq])\?([^?]*)\?=/g, (_all, _charset: string, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
  );
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  return headers;
}

function decodeBody(body: string, encoding = '7bit'): string {
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/quoted-printable/i.test(encoding)) {
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** The text/plain and text/html parts of a MIME entity, multipart or not. */
function parts(raw: string): { type: string; content: string }[] {
  const split = raw.indexOf('\r\n\r\n');
  const headers = parseHeaders(split < 0 ? raw : raw.slice(0, split));
  const body = split < 0 ? '' : raw.slice(split + 4);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .flatMap((part) => parts(part.replace(/^\r\n/, '').replace(/\r\n$/, '')));
  }
  return [{ type: type.split(';')[0].trim().toLowerCase(), content: decodeBody(body, headers['content-transfer-encoding']) }];
}

/**
 * A real SMTP server on a free local port that keeps what it is sent, for tests of outgoing
 * mail: start it, give the system EMAIL_HOST/EMAIL_PORT from `env()`, read `mails`.
 */
export class MailSink {
  readonly mails: ReceivedMail[] = [];
  private waiters: (() => void)[] = [];

  private constructor(private readonly server: SMTPServer) {}

  /** `refuse`: recipients the server turns away (550), as a mail server that cannot deliver does. */
  static async start(options: { refuse?: (address: string) => boolean } = {}): Promise<MailSink> {
    let sink: MailSink | undefined;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (options.refuse?.(address.address)) {
          callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
          return;
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          sink?.receive(
            Buffer.concat(chunks).toString('utf8'),
            session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            session.envelope.rcptTo.map((rcpt) => rcpt.address),
          );
          callback();
        });
      },
    });
    sink = new MailSink(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return sink;
  }

  get port(): number {
    return (this.server.server.address() as AddressInfo).port;
  }

  /** The environment that sends the system's mail here (plain SMTP, no login). */
  env(): Record<string, string> {
    return { EMAIL_HOST: '127.0.0.1', EMAIL_PORT: String(this.port), EMAIL_USE_TLS: 'false' };
  }

  /** Mail to `address` (compared without case), oldest first. */
  to(address: string): ReceivedMail[] {
    return this.mails.filter((mail) => mail.to.some((to) => to.toLowerCase() === address.toLowerCase()));
  }

  /** Waits until `count` mails to `address` have arrived (or fails after `timeoutMs`). */
  async waitFor(address: string, count = 1, timeoutMs = 5000): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.to(address).length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Expected ${count} mail(s) to ${address}, got ${this.to(address).length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
    return this.to(address);
  }

  clear(): void {
    this.mails.length = 0;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private receive(raw: string, from: string, to: string[]): void {
    const split = raw.indexOf('\r\n\r\n');
    const headers = parseHeaders(raw.slice(0, split));
    const found = parts(raw);
    this.mails.push({
      from,
      to,
      headers,
      subject: headers.subject ?? '',
      text: found.find((part) => part.type === 'text/plain')?.content ?? '',
      html: found.find((part) => part.type === 'text/html')?.content ?? '',
    });
    this.waiters.splice(0).forEach((wake) => wake());
  }
}

import { ErrorCode, NatsError, createInbox, type Msg, type MsgHdrs, type NatsConnection } from 'nats';

interface Waiter {
  resolve(message: Msg): void;
  reject(error: Error): void;
  deadline: number;
}

/** How often requests past their deadline are failed: a timeout is late by at most this. */
const SWEEP_MS = 100;

/**
 * Request/reply on one connection through a single wildcard reply subscription, for the calls
 * every message makes (commands, JetStream publish acknowledgements). nats.js's own `request`
 * builds per call a timer, a deferred and an Error (with its stack) even for a call that
 * succeeds; here a call is a map entry, and one timer sweeps the deadlines.
 * Failures carry nats.js's error codes: Timeout, NoResponders (nobody subscribes to the
 * subject) and ConnectionClosed.
 */
export class ReplyInbox {
  private readonly prefix = `${createInbox()}.`;
  private readonly pending = new Map<string, Waiter>();
  private next = 0;
  private outgoing: { subject: string; data: Uint8Array; token: string; headers?: MsgHdrs }[] = [];
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly connection: NatsConnection) {
    connection.subscribe(`${this.prefix}*`, { callback: (error, message) => error || this.settle(message) });
    this.sweeper = setInterval(() => this.expire(Date.now()), SWEEP_MS);
    this.sweeper.unref();
    void connection.closed().then(() => {
      clearInterval(this.sweeper);
      this.expire(Infinity, ErrorCode.ConnectionClosed);
    });
  }

  request(subject: string, data: Uint8Array, timeoutMs: number, headers?: MsgHdrs): Promise<Msg> {
    const token = (this.next++).toString(36);
    return new Promise<Msg>((resolve, reject) => {
      this.pending.set(token, { resolve, reject, deadline: Date.now() + timeoutMs });
      this.outgoing.push({ subject, data, token, headers });
      if (this.outgoing.length === 1) setImmediate(this.send);
    });
  }

  /**
   * Publishes the requests made since the last turn of the event loop together: nats.js writes
   * what is published within one task in one socket write, and under load many requests start
   * in the same turn (one per HTTP request or database answer read), each in a task of its own.
   */
  private readonly send = (): void => {
    const batch = this.outgoing;
    this.outgoing = [];
    for (const { subject, data, token, headers } of batch) {
      try {
        this.connection.publish(subject, data, headers ? { reply: this.prefix + token, headers } : { reply: this.prefix + token });
      } catch (error) {
        const waiter = this.pending.get(token);
        this.pending.delete(token);
        waiter?.reject(error as Error);
      }
    }
  };

  private settle(message: Msg): void {
    const token = message.subject.slice(this.prefix.length);
    const waiter = this.pending.get(token);
    if (!waiter) return; // answered after its deadline
    this.pending.delete(token);
    // The server's status message when no one subscribes to the subject.
    if (message.headers?.code === 503 && message.data.length === 0) waiter.reject(NatsError.errorForCode(ErrorCode.NoResponders));
    else waiter.resolve(message);
  }

  private expire(now: number, code = ErrorCode.Timeout): void {
    for (const [token, waiter] of this.pending) {
      if (waiter.deadline > now) continue;
      this.pending.delete(token);
      waiter.reject(NatsError.errorForCode(code));
    }
  }
}

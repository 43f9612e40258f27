import { Injectable } from '@nestjs/common';
import type { Msg, NatsConnection } from 'nats';

type Listener = { subject: string; callback: (message: Msg) => void };

/**
 * Subscriptions on the connection a service's commands arrive on (CommandServer's), for what
 * must be seen in order with those commands. NATS delivers one connection's messages in the
 * order the server routed them: an event published before a caller got its answer reaches a
 * subscriber here before any command that caller sends afterwards. A cache that such events
 * invalidate is therefore never read stale by a command that follows the change it was told of.
 */
@Injectable()
export class CommandConnection {
  private readonly listeners: Listener[] = [];
  private connection?: NatsConnection;

  /** Calls `callback` for each message on `subject` (wildcards allowed), before commands are taken. */
  subscribe(subject: string, callback: (message: Msg) => void): void {
    const listener = { subject, callback };
    this.listeners.push(listener);
    if (this.connection) this.attachOne(this.connection, listener);
  }

  /** CommandServer, once connected and before it subscribes to its commands. */
  attach(connection: NatsConnection): void {
    this.connection = connection;
    for (const listener of this.listeners) this.attachOne(connection, listener);
  }

  private attachOne(connection: NatsConnection, { subject, callback }: Listener): void {
    connection.subscribe(subject, { callback: (error, message) => error || callback(message) });
  }
}

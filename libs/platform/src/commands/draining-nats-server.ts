import { ServerNats } from '@nestjs/microservices';
import type { NatsConnection } from 'nats';

/**
 * Nest's NATS server closes its connection on shutdown, dropping requests in flight.
 * Draining first stops new deliveries, lets the handlers finish and flushes their replies.
 */
export class DrainingNatsServer extends ServerNats {
  override async close(): Promise<void> {
    let connection: NatsConnection | undefined;
    try {
      connection = this.unwrap<NatsConnection>();
    } catch {
      connection = undefined; // never connected
    }
    if (connection && !connection.isClosed()) await connection.drain();
    await super.close();
  }
}

import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ClientProxyFactory, Transport, type ClientProxy } from '@nestjs/microservices';
import type { CommandDef, CommandReply } from '@teamchat/contracts';
import { ZulipError } from '@teamchat/zulip';
import type { NatsConnection } from 'nats';
import { TimeoutError, firstValueFrom, timeout } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../config';

/**
 * Calls another service's command over NATS request/reply. Every call has a timeout: a
 * subject nobody serves would otherwise wait forever.
 */
@Injectable()
export class CommandClient implements OnApplicationShutdown {
  private readonly client: ClientProxy;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.client = ClientProxyFactory.create({ transport: Transport.NATS, options: { servers: [config.NATS_URL] } });
  }

  async call<P, R>(def: CommandDef<P, R>, payload: P, timeoutMs = this.config.NATS_REQUEST_TIMEOUT_MS): Promise<R> {
    let reply: CommandReply<R>;
    try {
      reply = await firstValueFrom(this.client.send<CommandReply<R>, P>(def.subject, payload).pipe(timeout(timeoutMs)));
    } catch (error) {
      if (error instanceof TimeoutError) {
        throw new ZulipError('SERVICE_UNAVAILABLE', 'Service temporarily unavailable', { service: def.service });
      }
      throw error;
    }
    if (!reply.ok) throw ZulipError.fromBody(reply.error);
    return reply.data;
  }

  async connect(): Promise<void> {
    await this.client.connect();
  }

  isConnected(): boolean {
    try {
      return !this.client.unwrap<NatsConnection>().isClosed();
    } catch {
      return false;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}

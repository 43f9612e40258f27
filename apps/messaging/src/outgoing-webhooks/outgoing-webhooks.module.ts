import { Module } from '@nestjs/common';
import { MessagingCoreModule } from '../core/core.module';
import { MessagesModule } from '../messages/messages.module';
import { DeliverOutgoingWebhook } from './deliver-outgoing-webhook.use-case';
import { OutgoingWebhooksQueue } from './outgoing-webhooks.queue';
import { OutgoingWebhooksWorker } from './outgoing-webhooks.worker';

/** Outgoing webhooks: the consumer of triggered bots, their queue, and the worker that calls the services. */
@Module({
  imports: [MessagingCoreModule, MessagesModule],
  providers: [OutgoingWebhooksQueue, OutgoingWebhooksWorker, DeliverOutgoingWebhook],
})
export class OutgoingWebhooksModule {}

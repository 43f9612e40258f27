import { Module } from '@nestjs/common';
import { Mailer } from '@teamchat/platform';
import { MissedMessageEmailsRepository } from '../data/missed-message-emails.repository';
import { NotificationContextReadonlyRepository } from '../data/notification-context.readonly.repository';
import { PushNotifiedRepository } from '../data/push-notified.repository';
import { DevicesModule } from '../devices/devices.module';
import { LegacyTokensModule } from '../legacy-tokens/legacy-tokens.module';
import { MissedMessageEmailWorker } from '../missed-emails/missed-message-email.worker';
import { MissedMessageEmails } from '../missed-emails/missed-message-emails';
import { SendMissedMessageEmail } from '../missed-emails/send-missed-message-email.use-case';
import { UnsubscribeHandler } from '../missed-emails/unsubscribe.handler';
import { UnsubscribeMissedMessages } from '../missed-emails/unsubscribe-missed-messages.use-case';
import { RelayModule } from '../relay/relay.module';
import { DecideNotifications } from './decide-notifications.use-case';
import { MobilePushQueue } from './mobile-push.queue';
import { DecisionsWorker } from './decisions.worker';
import { MobilePushWorker } from './mobile-push.worker';
import { ReadMessagesConsumer } from './read-messages.consumer';
import { SendMessagePush } from './send-message-push.use-case';
import { SendPushRemoval } from './send-push-removal.use-case';

/**
 * Notifications of messages: who is notified (from the gateway's delivery), mobile pushes and
 * their removal when read, missed-message emails and their unsubscribe link.
 */
@Module({
  imports: [DevicesModule, RelayModule, LegacyTokensModule],
  controllers: [UnsubscribeHandler],
  providers: [
    NotificationContextReadonlyRepository,
    PushNotifiedRepository,
    MissedMessageEmailsRepository,
    Mailer,
    MobilePushQueue,
    MissedMessageEmails,
    DecideNotifications,
    SendMessagePush,
    SendPushRemoval,
    SendMissedMessageEmail,
    UnsubscribeMissedMessages,
    DecisionsWorker,
    MobilePushWorker,
    MissedMessageEmailWorker,
    ReadMessagesConsumer,
  ],
})
export class NotificationsModule {}

import { Module } from '@nestjs/common';
import { DbModule } from '@teamchat/db';
import { LegacyTokensModule } from './legacy-tokens/legacy-tokens.module';
import { NotificationsModule } from './notifications/notifications.module';
import { RegisterStateModule } from './register/register-state.module';
import { RegistrationModule } from './registration/registration.module';
import { TestNotificationModule } from './test-notification/test-notification.module';

/**
 * The push service: end-to-end encrypted mobile push devices, registered with the push relay
 * (Zulip's bouncer), and the test notification.
 */
@Module({
  imports: [DbModule.withGenericPlans(), RegistrationModule, TestNotificationModule, LegacyTokensModule, NotificationsModule, RegisterStateModule],
})
export class PushModule {}

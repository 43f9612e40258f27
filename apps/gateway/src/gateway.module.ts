import { Module } from '@nestjs/common';
import { EventsModule } from './events/events.module';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ApiAuthGuard } from './auth/api-auth.guard';
import { AuthModule } from './auth/auth.module';
import { GatewayHealthController } from './health/gateway-health.controller';
import { SuccessEnvelopeInterceptor } from './http/success-envelope.interceptor';
import { ZulipExceptionFilter } from './http/zulip-exception.filter';
import { ServerSettingsController } from './server-settings/server-settings.controller';
import { UsersController } from './users/users.controller';
import { ChannelsController } from './messaging/channels.controller';
import { DraftsController } from './messaging/drafts.controller';
import { MessagesController } from './messaging/messages.controller';
import { TopicsController } from './messaging/topics.controller';
import { PresenceController } from './presence/presence.controller';
import { OpenApiController } from './openapi/openapi.controller';

/**
 * The HTTP surface: authenticates, decodes parameters, calls one command, writes the
 * envelope. It holds no domain rules and no database connection.
 */
@Module({
  imports: [AuthModule, EventsModule],
  controllers: [
    GatewayHealthController,
    ServerSettingsController,
    UsersController,
    ChannelsController,
    MessagesController,
    TopicsController,
    DraftsController,
    PresenceController,
    OpenApiController,
  ],
  providers: [
    { provide: APP_GUARD, useClass: ApiAuthGuard },
    { provide: APP_INTERCEPTOR, useClass: SuccessEnvelopeInterceptor },
    { provide: APP_FILTER, useClass: ZulipExceptionFilter },
  ],
})
export class GatewayModule {}

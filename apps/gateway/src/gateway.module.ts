import { Module } from '@nestjs/common';
import { EventsModule } from './events/events.module';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ApiAuthGuard } from './auth/api-auth.guard';
import { AuthModule } from './auth/auth.module';
import { GatewayHealthController } from './health/gateway-health.controller';
import { SuccessEnvelopeInterceptor } from './http/success-envelope.interceptor';
import { ZulipExceptionFilter } from './http/zulip-exception.filter';
import { CommandRoutes } from './http/command-routes';
import { UploadsProxy } from './http/uploads-proxy';
import { AccountPages } from './http/account-pages';
import { BrowserLogin } from './http/browser-login';
import { SignupPages } from './http/signup-pages';
import { WebApp } from './http/web-app';
import { EmojiAssets } from './http/emoji-assets';
import { StaticImages } from './http/static-images';
import { PollSockets } from './events/poll-sockets';
import { FrontDoor } from './http/front-door';
import { ServerSettingsController } from './server-settings/server-settings.controller';
import { OpenApiController } from './openapi/openapi.controller';

/**
 * The HTTP surface: authenticates, decodes parameters, calls one command, writes the
 * envelope. It holds no domain rules and no database connection. Endpoints a service answers
 * are routed by CommandRoutes (from their declarations); the controllers here serve the ones
 * the gateway answers itself.
 */
@Module({
  imports: [AuthModule, EventsModule],
  controllers: [
    GatewayHealthController,
    ServerSettingsController,
    OpenApiController,
  ],
  providers: [
    CommandRoutes,
    FrontDoor,
    PollSockets,
    UploadsProxy,
    AccountPages,
    BrowserLogin,
    SignupPages,
    WebApp,
    EmojiAssets,
    StaticImages,
    { provide: APP_GUARD, useClass: ApiAuthGuard },
    { provide: APP_INTERCEPTOR, useClass: SuccessEnvelopeInterceptor },
    { provide: APP_FILTER, useClass: ZulipExceptionFilter },
  ],
})
export class GatewayModule {}

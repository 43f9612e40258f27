import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import express from 'express';
import { CommandClient, MetricsService, PinoNestLogger, PlatformModule, configOrExit, createLogger, startTracing, tracing } from '@teamchat/platform';
import { GatewayModule } from './gateway.module';
import { configureBodyParsing } from './http/body-parsing';
import { CommandRoutes } from './http/command-routes';
import { EXACT_ROUTING } from './http/exact-routing';
import { answerClientErrors } from './http/client-errors';
import { PollSockets } from './events/poll-sockets';
import { FrontDoor } from './http/front-door';
import { UploadsProxy } from './http/uploads-proxy';
import { AccountPages } from './http/account-pages';
import { BrowserLogin } from './http/browser-login';
import { SignupPages } from './http/signup-pages';
import { WebApp } from './http/web-app';
import { EmojiAssets } from './http/emoji-assets';
import { StaticImages } from './http/static-images';
import { httpMetrics } from './http/http-metrics.middleware';
import { requestIdWithin } from './http/request-id.middleware';
import { restoreRequestTrace } from './http/request-trace';
import { unmountedEndpoints } from './http/route.decorator';

async function bootstrap() {
  const config = configOrExit();
  startTracing('gateway');
  const logger = createLogger('gateway', config.LOG_LEVEL);

  @Module({ imports: [PlatformModule.forRoot('gateway', config, logger), GatewayModule] })
  class GatewayRootModule {}

  // The application's own router (Nest's routes) matches exactly too: settings read when it is made.
  const expressApp = express();
  expressApp.set('case sensitive routing', EXACT_ROUTING.caseSensitive);
  expressApp.set('strict routing', EXACT_ROUTING.strict);
  const app = await NestFactory.create(GatewayRootModule, new ExpressAdapter(expressApp), { logger: new PinoNestLogger(logger), bodyParser: false });
  const unmounted = unmountedEndpoints();
  if (unmounted.length > 0) {
    logger.fatal({ unmounted }, 'gateway serves none of some declared endpoints');
    process.exit(70); // EX_SOFTWARE: a build that forgot a route must not start
  }
  app.getHttpAdapter().getInstance().disable('x-powered-by');
  // API responses are never revalidated; hashing every body for an ETag costs a long-poll server dearly.
  app.getHttpAdapter().getInstance().set('etag', false);
  app.use(requestIdWithin(config.NATS_REQUEST_TIMEOUT_MS));
  app.use(httpMetrics(app.get(MetricsService)));
  // File bodies stream to the uploads service untouched, so this goes before body parsing.
  app.use(app.get(UploadsProxy).router);
  const bodyParsers = configureBodyParsing(app, config.MAX_REQUEST_BODY_BYTES);
  // With tracing on, what follows body parsing runs in the request's trace context again.
  if (tracing.enabled) {
    app.use(restoreRequestTrace);
    bodyParsers.push(restoreRequestTrace);
  }
  app.use(app.get(CommandRoutes).router);
  app.use(app.get(AccountPages).router);
  app.use(app.get(BrowserLogin).router);
  app.use(app.get(SignupPages).router);
  app.use(app.get(WebApp).router);
  app.use(app.get(EmojiAssets).router);
  app.use(app.get(StaticImages).router);
  app.setGlobalPrefix('api/v1', { exclude: ['health/live', 'health/ready', 'metrics'] });
  app.enableShutdownHooks([], { useProcessExit: true }); // exit 0 after a clean SIGTERM
  await app.get(CommandClient).connect();
  await app.init();
  // GET /events and the command routes are served before Express sees the request (see FrontDoor).
  app.get(FrontDoor).installOn(app.getHttpServer(), app.getHttpAdapter().getInstance(), bodyParsers);
  // Idle keep-alive connections outlive a load balancer's (commonly 60 s), so the balancer closes
  // them first: a server that closes an idle connection just as a client reuses it cuts a request.
  const server = app.getHttpServer() as import('node:http').Server;
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  if (config.EVENT_POLL_SOCKETS) app.get(PollSockets).installOn(server);
  answerClientErrors(server);
  await app.listen(config.GATEWAY_PORT, '0.0.0.0');
  logger.info({ port: config.GATEWAY_PORT }, 'gateway ready');
}

void bootstrap();

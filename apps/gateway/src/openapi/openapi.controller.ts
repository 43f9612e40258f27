import { Controller, Get, Inject } from '@nestjs/common';
import { buildOpenApiDocument } from '@teamchat/contracts';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { Auth } from '../http/auth-mode.decorator';
import { RawResponse } from '../http/success-envelope.interceptor';

/**
 * GET /api/v1/openapi.json: the API's OpenAPI 3.1 description, generated from the endpoint
 * declarations in libs/contracts. Not a Zulip endpoint, so not in the document itself.
 */
@Controller()
export class OpenApiController {
  private document?: Record<string, unknown>;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('openapi.json')
  @Auth('none')
  @RawResponse()
  get(): Record<string, unknown> {
    this.document ??= buildOpenApiDocument({ externalUrl: this.config.EXTERNAL_URL });
    return this.document;
  }
}

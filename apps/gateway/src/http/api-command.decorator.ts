import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { ApiCommand, ApiCommandDef } from '@teamchat/contracts';
import { decodeParams, type DecodedParams, type ParamSpecs } from '@teamchat/zulip';
import { rawParams, type ApiRequest } from './request-context';

/**
 * Builds a command's envelope from the request: the organization and caller the guard found,
 * and the parameters decoded by the command's one declaration.
 */
export const ApiCommandOf = createParamDecorator(
  <S extends ParamSpecs>(def: ApiCommandDef<S, unknown>, context: ExecutionContext): ApiCommand<DecodedParams<S>> => {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const values = decodeRequest(req, def.params);
    if (!req.ctx.realm) throw new Error(`${def.subject} needs an organization; mark its route @Auth('realm') or stronger`);
    return {
      realm: req.ctx.realm,
      user: req.ctx.user,
      params: values,
      requestId: req.ctx.requestId,
      client: clientName(req.header('user-agent')),
    };
  },
);

/** Decodes the request's parameters by `specs`; names it does not declare are reported as ignored. */
export function decodeRequest<S extends ParamSpecs>(req: ApiRequest, specs: S): DecodedParams<S> {
  const { values, ignored } = decodeParams(specs, rawParams(req));
  req.ctx.ignored = ignored;
  return values;
}

/** The decoded parameters of an endpoint the gateway serves itself (no command behind it). */
export const ParamsOf = createParamDecorator(<S extends ParamSpecs>(specs: S, context: ExecutionContext): DecodedParams<S> =>
  decodeRequest(context.switchToHttp().getRequest<ApiRequest>(), specs),
);

/** Zulip names the client by its User-Agent's first product token ("ZulipMobile/27.1 …"). */
function clientName(userAgent: string | undefined): string {
  const token = (userAgent ?? '').trim().split(/[/\s]/)[0];
  return /^[A-Za-z0-9._-]{1,30}$/.test(token) ? token : 'API';
}

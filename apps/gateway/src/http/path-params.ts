import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { ApiCommand, ApiCommandDef } from '@teamchat/contracts';
import { ZulipError, decodeParams, type ParamSpecs } from '@teamchat/zulip';
import { rawParams, type ApiRequest } from './request-context';

interface PathCommandSpec {
  def: ApiCommandDef<ParamSpecs, unknown>;
  pathNames: readonly string[];
}

const split = (specs: ParamSpecs, names: readonly string[]): [ParamSpecs, ParamSpecs] => {
  const path: ParamSpecs = {};
  const rest: ParamSpecs = {};
  for (const [name, spec] of Object.entries(specs)) (names.includes(name) ? path : rest)[name] = spec;
  return [path, rest];
};

/** What any path no route matches gets (see ZulipExceptionFilter). */
const notFound = () => new ZulipError('NOT_FOUND', 'Not Found');

const PathCommand = createParamDecorator(({ def, pathNames }: PathCommandSpec, context: ExecutionContext): ApiCommand<unknown> => {
  const req = context.switchToHttp().getRequest<ApiRequest>();
  const [pathSpecs, otherSpecs] = split(def.params, pathNames);

  // Path segments are decoded by the same declaration as any parameter. A segment the
  // declaration refuses (`/drafts/abc` for an integer) matches no route, as with Zulip's URL
  // patterns (`<int:draft_id>`): 404 NOT_FOUND like any unknown path, before the other
  // parameters are looked at.
  const segments: Record<string, string> = Object.create(null);
  for (const name of pathNames) {
    const value = (req.params as Record<string, unknown>)[name];
    if (typeof value === 'string') segments[name] = value;
  }
  let pathValues: Record<string, unknown>;
  try {
    pathValues = decodeParams(pathSpecs, segments).values;
  } catch (error) {
    if (error instanceof ZulipError) throw notFound();
    throw error;
  }
  // Only a value's canonical text names it: `/drafts/7.0` or `/drafts/7e0` is not draft 7.
  for (const name of pathNames) {
    if (pathSpecs[name].wire === 'json' && JSON.stringify(pathValues[name]) !== segments[name]) throw notFound();
  }

  // The query string and body never supply a path parameter: a body `draft_id` is ignored.
  const { values, ignored } = decodeParams(otherSpecs, rawParams(req));
  req.ctx.ignored = ignored;
  if (!req.ctx.realm) throw new Error(`${def.subject} needs an organization; mark its route @Auth('realm') or stronger`);
  return { realm: req.ctx.realm, user: req.ctx.user, params: { ...values, ...pathValues }, requestId: req.ctx.requestId };
});

/**
 * `@ApiCommandOf` for routes with path parameters: builds the command's envelope with the
 * named parameters taken from the route's `:name` segments and the rest decoded as usual.
 * Every parameter, path ones included, is declared once in the command's contract.
 *
 *     @Patch('drafts/:draft_id')
 *     edit(@ApiCommandWithPath(Messaging.editDraft, 'draft_id') command: PayloadOf<typeof Messaging.editDraft>)
 */
export function ApiCommandWithPath<S extends ParamSpecs>(
  def: ApiCommandDef<S, unknown>,
  ...pathNames: (keyof S & string)[]
): ParameterDecorator {
  return PathCommand({ def: def as unknown as ApiCommandDef<ParamSpecs, unknown>, pathNames });
}

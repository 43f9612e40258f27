import { RequestMapping, RequestMethod, applyDecorators } from '@nestjs/common';
import { ENDPOINT_REGISTRY, expressPath, type Endpoint, type HttpMethod } from '@teamchat/contracts';
import { Auth } from './auth-mode.decorator';

const METHODS: Record<HttpMethod, RequestMethod> = {
  get: RequestMethod.GET,
  post: RequestMethod.POST,
  patch: RequestMethod.PATCH,
  put: RequestMethod.PUT,
  delete: RequestMethod.DELETE,
};

/** Endpoints this process serves; one declared but never mounted is a programming error. */
const mounted = new Set<Endpoint>();

/** Marks `endpoint` as served by something other than a `@Route` handler (a middleware). */
export function mountedElsewhere(endpoint: Endpoint): void {
  mounted.add(endpoint);
}

/**
 * Mounts a handler at the endpoint's declared route with its declared auth mode, so the route,
 * the document and the handler cannot disagree.
 */
export function Route(endpoint: Endpoint): MethodDecorator {
  if (mounted.has(endpoint)) throw new Error(`Two handlers for ${endpoint.method.toUpperCase()} ${endpoint.path}`);
  mounted.add(endpoint);
  return applyDecorators(RequestMapping({ path: expressPath(endpoint), method: METHODS[endpoint.method] }), Auth(endpoint.auth));
}

/** The declared endpoints nothing serves (checked at start). */
export function unmountedEndpoints(): string[] {
  return ENDPOINT_REGISTRY.filter((endpoint) => !mounted.has(endpoint)).map(
    (endpoint) => `${endpoint.method.toUpperCase()} ${endpoint.path}`,
  );
}

import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { endpointOf, expressPath } from './endpoint';

const declare = (route: `PATCH /${string}`, params: Record<string, ReturnType<typeof param.string>>) =>
  endpointOf('gateway', { route, summary: 'test', params, response: z.object({}) });

describe('endpoint routes', () => {
  it('turns {name} segments into Express parameters', () => {
    const endpoint = declare('PATCH /users/me/{stream_id}/topics', { stream_id: param.string() });
    expect(endpoint.path).toBe('/users/me/{stream_id}/topics');
    expect(endpoint.pathParams).toEqual(['stream_id']);
    expect(endpoint.restPathParam).toBeUndefined();
    expect(expressPath(endpoint)).toBe('users/me/:stream_id/topics');
  });

  it('lets a last {name+} segment take the rest of the path, documented as a plain {name}', () => {
    const endpoint = declare('PATCH /navigation_views/{fragment+}', { fragment: param.string() });
    expect(endpoint.path).toBe('/navigation_views/{fragment}');
    expect(endpoint.pathParams).toEqual(['fragment']);
    expect(endpoint.restPathParam).toBe('fragment');
    expect(expressPath(endpoint)).toBe('navigation_views/*fragment');
  });

  it('keeps ordinary segments before the rest of the path', () => {
    const endpoint = declare('PATCH /things/{id}/{rest+}', { id: param.string(), rest: param.string() });
    expect(endpoint.path).toBe('/things/{id}/{rest}');
    expect(endpoint.pathParams).toEqual(['id', 'rest']);
    expect(expressPath(endpoint)).toBe('things/:id/*rest');
  });

  it('refuses a {name+} segment that is not the last one', () => {
    expect(() => declare('PATCH /things/{rest+}/more', { rest: param.string() })).toThrow(
      'PATCH /things/{rest+}/more: only the last segment may take the rest of the path',
    );
  });

  it('refuses a path segment that is not a declared parameter', () => {
    expect(() => declare('PATCH /things/{rest+}', {})).toThrow('PATCH /things/{rest+}: path segment {rest} is not a declared parameter');
  });
});

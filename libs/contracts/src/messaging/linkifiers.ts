import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { apiSchema, emptyResponse, int } from '../api/api-schemas';
import { clientEventSchema, defineEvent } from '../event';

// Linkifiers (Zulip's RealmFilter) and code playgrounds (RealmPlayground): organization
// configuration messaging owns, since its Markdown renderer applies the linkifiers.

/** A linkifier as GET /realm/linkifiers, the register key and the event list it (Zulip's LinkifierDict). */
export const linkifierSchema = apiSchema(
  'Linkifier',
  z.object({
    /** A regular expression (RE2 syntax, Python's named groups `(?P<name>…)`). */
    pattern: z.string(),
    /** An RFC 6570 URL template whose variables are the pattern's named groups. */
    url_template: z.string(),
    id: int(),
  }),
);
export type LinkifierRecord = z.infer<typeof linkifierSchema>;

/** A code playground (Zulip's RealmPlaygroundDict). */
export const realmPlaygroundSchema = apiSchema(
  'RealmPlayground',
  z.object({
    id: int(),
    name: z.string(),
    pygments_language: z.string(),
    /** An RFC 6570 URL template with the one variable `code`. */
    url_template: z.string(),
  }),
);
export type RealmPlaygroundRecord = z.infer<typeof realmPlaygroundSchema>;

export const listLinkifiers = defineApiCommand('messaging', 'list_linkifiers', {
  route: 'GET /realm/linkifiers',
  summary: "The organization's linkifiers, in the order they are applied.",
  params: {},
  response: z.object({ linkifiers: z.array(linkifierSchema) }),
});

export const reorderLinkifiersParams = {
  ordered_linkifier_ids: param.intList(),
};

export const reorderLinkifiers = defineApiCommand('messaging', 'reorder_linkifiers', {
  route: 'PATCH /realm/linkifiers',
  summary: "Sets the order the organization's linkifiers are applied in (administrators).",
  params: reorderLinkifiersParams,
  response: emptyResponse,
});

export const createLinkifierParams = {
  pattern: param.string(),
  url_template: param.string(),
};

export const createLinkifier = defineApiCommand('messaging', 'create_linkifier', {
  route: 'POST /realm/filters',
  summary: 'Adds a linkifier, applied after the existing ones (administrators).',
  params: createLinkifierParams,
  response: z.object({ id: int() }),
});

export const updateLinkifierParams = {
  filter_id: param.int(),
  ...createLinkifierParams,
};

export const updateLinkifier = defineApiCommand('messaging', 'update_linkifier', {
  route: 'PATCH /realm/filters/{filter_id}',
  summary: "Changes a linkifier's pattern and URL template (administrators).",
  params: updateLinkifierParams,
  response: emptyResponse,
});

export const deleteLinkifierParams = {
  filter_id: param.int(),
};

export const deleteLinkifier = defineApiCommand('messaging', 'delete_linkifier', {
  route: 'DELETE /realm/filters/{filter_id}',
  summary: 'Removes a linkifier (administrators).',
  params: deleteLinkifierParams,
  response: emptyResponse,
});

export const createPlaygroundParams = {
  name: param.string(),
  pygments_language: param.string(),
  url_template: param.string(),
};

export const createPlayground = defineApiCommand('messaging', 'create_playground', {
  route: 'POST /realm/playgrounds',
  summary: 'Adds a code playground for a language (administrators).',
  params: createPlaygroundParams,
  response: z.object({ id: int() }),
});

export const deletePlaygroundParams = {
  playground_id: param.int(),
};

export const deletePlayground = defineApiCommand('messaging', 'delete_playground', {
  route: 'DELETE /realm/playgrounds/{playground_id}',
  summary: 'Removes a code playground (administrators).',
  params: deletePlaygroundParams,
  response: emptyResponse,
});

export const LinkifierEvents = {
  /**
   * `realm_linkifiers` events (the whole ordered list), to every active user of the organization;
   * only queues with the `linkifier_url_template` capability receive them. Messaging's renderer
   * drops its cached linkifiers of the organization on it.
   */
  linkifiersChanged: defineEvent('messaging', 'linkifiers_changed', clientEventSchema),
  /** `realm_playgrounds` events (the whole list), to every active user of the organization. */
  playgroundsChanged: defineEvent('messaging', 'playgrounds_changed', clientEventSchema),
};

import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { apiSchema, emptyResponse } from '../api/api-schemas';
import { clientEventSchema, defineEvent } from '../event';

/**
 * The views the web client always offers (zerver/views/navigation_views.py
 * BUILT_IN_VIEW_FRAGMENTS): a user may pin or hide them, never rename them.
 */
export const BUILT_IN_NAVIGATION_VIEWS: readonly string[] = [
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
];

/** The columns' sizes (navigation_views.fragment, .name), in characters. */
export const MAX_NAVIGATION_VIEW_FRAGMENT_LENGTH = 255;
export const MAX_NAVIGATION_VIEW_NAME_LENGTH = 100;

/**
 * A navigation view as GET /navigation_views and the `navigation_view` events show it: one the
 * user added, or a built-in one whose pinning they changed (those have no `name`).
 */
export const navigationViewSchema = apiSchema(
  'NavigationView',
  z.object({
    /** The view's URL hash (`inbox`, `narrow/is/alerted`): its identifier. */
    fragment: z.string(),
    /** True: shown in the left sidebar; false: in the "More views" menu. */
    is_pinned: z.boolean(),
    /** Custom views only. */
    name: z.string().optional(),
  }),
);
export type NavigationViewRecord = z.infer<typeof navigationViewSchema>;

/**
 * Zulip's `StringConstraints(strip_whitespace=True, min_length=1)`, plus the column's size
 * (Zulip's columns are unbounded), counted in characters as Postgres counts them.
 */
const strippedText = (name: string, max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .refine((text) => Array.from(text).length <= max, { message: `${name} is too long (limit: ${max} characters)` });

export const listNavigationViews = defineApiCommand('users-groups', 'list_navigation_views', {
  route: 'GET /navigation_views',
  summary: "The caller's navigation views: the ones they added and the built-in ones they pinned or hid.",
  params: {},
  response: z.object({ navigation_views: z.array(navigationViewSchema) }),
});

export const addNavigationViewParams = {
  fragment: param.string(strippedText('fragment', MAX_NAVIGATION_VIEW_FRAGMENT_LENGTH)),
  is_pinned: param.bool(),
  name: param.string(strippedText('name', MAX_NAVIGATION_VIEW_NAME_LENGTH)).optional(),
};

export const addNavigationView = defineApiCommand('users-groups', 'add_navigation_view', {
  route: 'POST /navigation_views',
  summary: 'Adds a custom navigation view, or the first setting of a built-in one (which takes no name).',
  params: addNavigationViewParams,
  response: emptyResponse,
});

export const editNavigationViewParams = {
  /** From the path, slashes included; stripped as Zulip strips it. */
  fragment: param.string(z.string().trim()),
  is_pinned: param.bool().optional(),
  name: param.string(strippedText('name', MAX_NAVIGATION_VIEW_NAME_LENGTH)).optional(),
};

export const editNavigationView = defineApiCommand('users-groups', 'edit_navigation_view', {
  route: 'PATCH /navigation_views/{fragment+}',
  summary: "Pins, hides or renames one of the caller's stored navigation views.",
  params: editNavigationViewParams,
  response: emptyResponse,
});

export const removeNavigationViewParams = {
  /** From the path, slashes included; taken as it is (Zulip does not strip it here). */
  fragment: param.string(),
};

export const removeNavigationView = defineApiCommand('users-groups', 'remove_navigation_view', {
  route: 'DELETE /navigation_views/{fragment+}',
  summary: "Removes one of the caller's stored navigation views (a built-in one goes back to its default).",
  params: removeNavigationViewParams,
  response: emptyResponse,
});

export const NavigationViewEvents = {
  /** `navigation_view` add, update and remove events, to the view's owner. */
  navigationViewChanged: defineEvent('users-groups', 'navigation_view_changed', clientEventSchema),
};

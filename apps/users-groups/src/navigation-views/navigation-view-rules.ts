import { UsersGroups, type ClientEvent, type EventDef } from '@teamchat/contracts';
import type { NavigationViewModel } from '@teamchat/db';
import { badRequest, resourceNotFound } from '@teamchat/zulip';

type NavigationViewRecord = UsersGroups.NavigationViewRecord;

const BUILT_IN = new Set(UsersGroups.BUILT_IN_NAVIGATION_VIEWS);

/** Whether `fragment` names one of the views the web client always offers. */
export const isBuiltInView = (fragment: string): boolean => BUILT_IN.has(fragment);

/**
 * No stored view of the caller's has that fragment (another user's is as unknown): Zulip's
 * ResourceNotFoundError, 404 with its default code BAD_REQUEST (the description's PATCH example
 * shows NOT_FOUND; its DELETE example and zerver/lib/navigation_views.py say BAD_REQUEST).
 */
export const navigationViewNotFound = () => resourceNotFound('Navigation view does not exist.');

export const navigationViewExists = () => badRequest('Navigation view already exists.');

export const builtInViewNamed = () => badRequest('Built-in views cannot have a custom name.');

/** A stored view as the API shows it: built-in views have no `name`. */
export function toNavigationViewRecord(row: Pick<NavigationViewModel, 'fragment' | 'isPinned' | 'name'>): NavigationViewRecord {
  return { fragment: row.fragment, is_pinned: row.isPinned, ...(row.name !== null ? { name: row.name } : {}) };
}

/** One `navigation_view` event for the owner's clients only, written with the change through the outbox. */
export function navigationViewEvent(
  realmId: number,
  ownerId: number,
  event:
    | { op: 'add'; navigation_view: NavigationViewRecord }
    | { op: 'update'; fragment: string; data: { is_pinned?: boolean; name?: string } }
    | { op: 'remove'; fragment: string },
): { def: EventDef<ClientEvent>; payload: ClientEvent } {
  return {
    def: UsersGroups.NavigationViewEvents.navigationViewChanged,
    payload: { realmId, users: [ownerId], event: { type: 'navigation_view', ...event } },
  };
}

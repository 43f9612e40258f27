import { z } from 'zod';
import { authUserSchema, defineCommand, realmRefSchema } from '../command';
import type { ServiceName } from '../services';
import type { UserRecord } from '../users-groups/users';

/**
 * What POST /register asks each owning service for: the parts of the initial state it owns,
 * for the caller, limited to `fetchEventTypes` (null: every kind). Every service answers with
 * a plain object of top-level /register keys; the gateway merges them. The people
 * (`realm_users`, `realm_non_active_users`) come from the gateway's cache instead, filled by
 * registerPeople.
 */
export const registerStateRequestSchema = z.object({
  realm: realmRefSchema,
  user: authUserSchema,
  /** Zulip's fetch_event_types (defaulting to event_types); null means all. */
  fetchEventTypes: z.array(z.string()).nullable(),
  clientGravatar: z.boolean(),
  /** include_subscribers: subscriber lists on `subscriptions` (and the other channel lists). */
  includeSubscribers: z.boolean(),
  /** client_capabilities as the client declared them (unset flags are false). */
  capabilities: z.record(z.string(), z.boolean()),
  /** slim_presence: `presences` by user id in the modern format rather than by email. */
  slimPresence: z.boolean().default(false),
  /** presence_history_limit_days (null: Zulip's 14 days). */
  presenceHistoryLimitDays: z.number().int().nullable().default(null),
  requestId: z.string(),
});
export type RegisterStateRequest = z.input<typeof registerStateRequestSchema>;
export type RegisterState = Record<string, unknown>;

const registerStateOf = (service: ServiceName) =>
  defineCommand<RegisterStateRequest, RegisterState>(service, 'register_state', registerStateRequestSchema);

/** One command per service that owns part of the initial state. */
export const registerState = {
  usersGroups: registerStateOf('users-groups'),
  messaging: registerStateOf('messaging'),
  presence: registerStateOf('presence'),
  scheduler: registerStateOf('scheduler'),
  push: registerStateOf('push'),
};

/**
 * One page of the organization's people as a viewer of `viewerRole` sees them (GET /users'
 * records, custom profile fields included): what the gateway caches per organization and role
 * for POST /register's `realm_users`. Paged so that no reply passes NATS's payload limit. A
 * viewer's own record differs only in `delivery_email`, which the gateway puts in.
 */
export const registerPeopleRequestSchema = z.object({
  realm: realmRefSchema,
  viewerRole: z.number().int(),
  clientGravatar: z.boolean(),
  /** The page starts after this user id (0 for the first). */
  afterId: z.number().int().nonnegative(),
  limit: z.number().int().positive().max(2000),
  requestId: z.string(),
});
export type RegisterPeopleRequest = z.input<typeof registerPeopleRequestSchema>;
export interface RegisterPeoplePage {
  /** GET /users' records, `is_active` included, in id order. */
  records: Record<string, unknown>[];
  /** Where the next page starts, or null after the last. */
  next: number | null;
}
export const registerPeople = defineCommand<RegisterPeopleRequest, RegisterPeoplePage>('users-groups', 'register_people', registerPeopleRequestSchema);

/**
 * The people the organization's can_access_all_users_group hides from this guest (among
 * `among`, when given), each as Zulip's "Unknown user" record: POST /register shows them so (or
 * leaves them out, for clients with `user_list_incomplete`), and the guest may not write to
 * them. Asked for guests only: nobody is hidden from members and above.
 */
export const hiddenPeopleRequestSchema = z.object({
  realm: realmRefSchema,
  user: authUserSchema,
  among: z.array(z.number().int()).optional(),
  requestId: z.string(),
});
export type HiddenPeopleRequest = z.input<typeof hiddenPeopleRequestSchema>;
export const hiddenPeople = defineCommand<HiddenPeopleRequest, { people: UserRecord[] }>('users-groups', 'hidden_people', hiddenPeopleRequestSchema);

/** Whether the client asked for the state of the kind `fetchKey` (Zulip's `want()`). */
export function wants(request: Pick<RegisterStateRequest, 'fetchEventTypes'>, fetchKey: string): boolean {
  return request.fetchEventTypes === null || request.fetchEventTypes.includes(fetchKey);
}

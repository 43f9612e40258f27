import { UsersGroupsEvents, type ClientEvent, type EventDef } from '@teamchat/contracts';

/** One `user_settings` update event per changed setting, for the user's own clients. */
export function userSettingsEvents(
  realmId: number,
  userId: number,
  changes: { property: string; value: unknown }[],
): { def: EventDef<ClientEvent>; payload: ClientEvent }[] {
  return changes.map((change) => ({
    def: UsersGroupsEvents.userSettingsChanged,
    payload: { realmId, users: [userId], event: { type: 'user_settings', op: 'update', ...change } },
  }));
}

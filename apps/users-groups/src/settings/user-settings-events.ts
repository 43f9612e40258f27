import { UsersGroupsEvents, languageName, type ClientEvent, type EventDef } from '@teamchat/contracts';

/**
 * One `user_settings` update event per changed setting, for the user's own clients; a new
 * `default_language` also names the language (`language_name`), as Zulip's does.
 */
export function userSettingsEvents(
  realmId: number,
  userId: number,
  changes: { property: string; value: unknown }[],
): { def: EventDef<ClientEvent>; payload: ClientEvent }[] {
  return changes.map((change) => ({
    def: UsersGroupsEvents.userSettingsChanged,
    payload: {
      realmId,
      users: [userId],
      event: {
        type: 'user_settings',
        op: 'update',
        ...change,
        ...(change.property === 'default_language' ? { language_name: languageName(String(change.value)) } : {}),
      },
    },
  }));
}

import { Messaging, type ClientEvent, type EventDef } from '@teamchat/contracts';
import { isStoredId, type SavedSnippetModel } from '@teamchat/db';
import { resourceNotFound } from '@teamchat/zulip';

/** Zulip's answer for a snippet id the caller has none with (404, BAD_REQUEST). */
export const savedSnippetNotFound = () => resourceNotFound('Saved snippet does not exist.');

/** Whether `id` can name a row at all (ids outside the column's range are simply unknown). */
export const isSavedSnippetId = isStoredId;

export function toSavedSnippetRecord(row: SavedSnippetModel): Messaging.SavedSnippetRecord {
  return { id: row.id, title: row.title, content: row.content, date_created: Math.floor(row.dateCreated.getTime() / 1000) };
}

/** One `saved_snippets` event for the owner's clients only, written to the outbox with the change. */
export function savedSnippetsEvent(
  realmId: number,
  ownerId: number,
  event: { op: 'add' | 'update'; saved_snippet: Messaging.SavedSnippetRecord } | { op: 'remove'; saved_snippet_id: number },
): { def: EventDef<never>; payload: ClientEvent } {
  const def = Messaging.MessagingEvents.savedSnippetsChanged as EventDef<ClientEvent> as unknown as EventDef<never>;
  return { def, payload: { realmId, users: [ownerId], event: { type: 'saved_snippets', ...event } } };
}

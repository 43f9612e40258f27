import type { QueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../api/client';
import type { RegisterAnswer, ServerEvent } from '../api/types';
import { CHAT_STATE, stateFromRegister } from './chat-state';
import { dispatch } from './dispatch';
import { clearTyping } from './typing';

const REGISTER = {
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  include_subscribers: false,
  event_types: ['message', 'update_message_flags', 'delete_message', 'subscription', 'stream', 'realm_user', 'typing', 'reaction', 'update_message', 'drafts', 'scheduled_messages', 'realm', 'user_settings', 'user_topic', 'user_group', 'presence', 'user_status', 'channel_folder', 'navigation_view', 'realm_user_settings_defaults', 'muted_users', 'alert_words', 'saved_snippets', 'realm_emoji', 'realm_linkifiers', 'realm_playgrounds', 'custom_profile_fields', 'realm_bot', 'invites_changed', 'realm_export', 'reminders', 'submessage', 'realm_domains'],
  fetch_event_types: ['channel_folders', 'navigation_views', 'realm_user_settings_defaults', 'message', 'update_message_flags', 'subscription', 'realm_user', 'realm_user_groups', 'realm', 'drafts', 'scheduled_messages', 'user_settings', 'user_topic', 'presence', 'user_status', 'muted_users', 'alert_words', 'saved_snippets', 'realm_emoji', 'realm_linkifiers', 'realm_playgrounds', 'custom_profile_fields', 'realm_bot', 'reminders', 'realm_domains'],
  client_capabilities: { user_list_incomplete: true, user_settings_object: true, notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: false, stream_typing_notifications: true, simplified_presence_events: true, linkifier_url_template: true },
};

/** Waits before the n-th retry in a row: 1 s doubling to 30 s, with jitter, as Zulip's web app backs off. */
const backoffMs = (failures: number) => Math.min(30_000, 1000 * 2 ** Math.min(failures - 1, 5)) * (0.75 + Math.random() / 2);

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * The app's event queue: POST /register (whose answer becomes the chat state), then GET /events
 * long-polls, each event through `dispatch`. Errors back off; a queue the server no longer has
 * (BAD_EVENT_QUEUE_ID: it was collected, or the server restarted) is registered afresh and what
 * is on screen loaded again, since events were missed; a 401 stops (the app shows the login).
 * Returns the function that stops it (and deletes the queue).
 */
export function startEventQueue(client: QueryClient): () => void {
  const abort = new AbortController();
  const { signal } = abort;
  let queueId: string | null = null;

  void (async () => {
    let failures = 0;
    let first = true;
    while (!signal.aborted) {
      let registered: RegisterAnswer;
      try {
        registered = await api.post<RegisterAnswer>('/register', REGISTER, signal);
      } catch (error) {
        if (signal.aborted || (error instanceof ApiError && error.status === 401)) return;
        await sleep(backoffMs(++failures), signal);
        continue;
      }
      failures = 0;
      queueId = registered.queue_id ?? null;
      client.setQueryData(CHAT_STATE, stateFromRegister(registered));
      if (!first) {
        clearTyping();
        await client.invalidateQueries({ queryKey: ['messages'] });
      }
      first = false;
      let lastEventId = registered.last_event_id;
      while (!signal.aborted) {
        try {
          const answer = await api.get<{ events: ServerEvent[] }>('/events', { queue_id: queueId ?? '', last_event_id: lastEventId }, signal);
          for (const event of answer.events) {
            lastEventId = Math.max(lastEventId, event.id);
            try {
              dispatch(client, event);
            } catch (error) {
              console.error('could not apply event', event, error);
            }
          }
          failures = 0;
        } catch (error) {
          if (signal.aborted) return;
          if (error instanceof ApiError && error.code === 'BAD_EVENT_QUEUE_ID') break;
          if (error instanceof ApiError && error.status === 401) return;
          await sleep(backoffMs(++failures), signal);
        }
      }
    }
  })();

  return () => {
    abort.abort();
    if (queueId) void api.delete('/events', { queue_id: queueId }).catch(() => undefined);
  };
}

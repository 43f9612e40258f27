import type { QueryClient } from '@tanstack/react-query';
import { ok, typedApi } from '../api/typed-client';
import { chatState, updateChatState, type ChatState } from '../events/chat-state';

export type PresenceKind = 'active' | 'idle' | 'offline';

/**
 * A user's presence as Zulip's web app shows it: active when they were active within the
 * server's offline threshold, idle when only idle within it, offline otherwise.
 */
export function presenceOf(state: ChatState, userId: number, nowSeconds = Date.now() / 1000): PresenceKind {
  const presence = state.presences[userId];
  if (!presence) return 'offline';
  if (nowSeconds - presence.active_timestamp < state.presenceOfflineSeconds) return 'active';
  if (nowSeconds - presence.idle_timestamp < state.presenceOfflineSeconds) return 'idle';
  return 'offline';
}

/**
 * Reports my presence (POST /users/me/presence) now and then every ping interval, active while
 * the page has the focus or was used since the last report, idle otherwise; the answer carries
 * everyone's presence, which replaces what the app knew (presence events only say who came
 * online). Returns the function that stops it.
 */
export function startPresenceReporter(client: QueryClient): () => void {
  let used = true;
  const noteUse = () => (used = true);
  const events = ['keydown', 'pointerdown', 'focus'] as const;
  for (const name of events) window.addEventListener(name, noteUse, { passive: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  async function report() {
    const active = used || document.hasFocus();
    used = false;
    try {
      const answer = await ok(typedApi.POST('/users/me/presence', { body: { status: active ? 'active' : 'idle', new_user_input: active, slim_presence: true } }));
      // With slim_presence the answer is in the modern format, by user id.
      const presences = Object.fromEntries(
        Object.entries(answer.presences ?? {}).flatMap(([id, presence]) => ('active_timestamp' in presence ? [[Number(id), presence as { active_timestamp: number; idle_timestamp: number }]] : [])),
      );
      updateChatState(client, (state) => ({ ...state, presences: { ...state.presences, ...presences } }));
    } catch {
      // The next report tries again.
    }
    if (!stopped) timer = setTimeout(() => void report(), (chatState(client)?.presencePingSeconds ?? 60) * 1000);
  }
  void report();

  return () => {
    stopped = true;
    clearTimeout(timer);
    for (const name of events) window.removeEventListener(name, noteUse);
  };
}

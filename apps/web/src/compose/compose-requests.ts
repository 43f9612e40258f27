import { useSyncExternalStore } from 'react';

/**
 * What another part of the app asks of the compose box: reply to a message (r), start a new
 * topic (c), restore a draft. The compose box takes the latest request and applies it.
 */
export interface ComposeRequest {
  channelId?: number;
  topic?: string;
  content?: string;
  draftId?: number;
  focus: 'topic' | 'message';
}

let current: { request: ComposeRequest; serial: number } | null = null;
let taken = 0;
let serial = 0;
const listeners = new Set<() => void>();

export function requestCompose(request: ComposeRequest): void {
  current = { request, serial: ++serial };
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The latest request (a new object for each), re-rendering as one comes. */
export function useComposeRequest(): { request: ComposeRequest; serial: number } | null {
  return useSyncExternalStore(subscribe, () => current);
}

/** The latest request once: a compose box shown later (after a narrow change) still gets it. */
export function takeComposeRequest(): ComposeRequest | null {
  if (!current || current.serial === taken) return null;
  taken = current.serial;
  return current.request;
}

import { useSyncExternalStore } from 'react';

/**
 * Who is typing where: conversation key → person → when their notice lapses. Typing is not
 * server state worth caching; the dispatcher feeds it and a timer drops lapsed notices.
 */
const typing = new Map<string, Map<number, number>>();
const listeners = new Set<() => void>();
let version = 0;
/** Zulip's server_typing_started_expiry_period_milliseconds: a start not renewed lapses. */
const EXPIRY_MS = 15_000;

function changed(): void {
  version++;
  for (const listener of listeners) listener();
}

export function typingStarted(conversation: string, userId: number): void {
  if (!typing.has(conversation)) typing.set(conversation, new Map());
  typing.get(conversation)!.set(userId, Date.now() + EXPIRY_MS);
  changed();
  setTimeout(sweep, EXPIRY_MS + 100);
}

export function typingStopped(conversation: string, userId: number): void {
  if (typing.get(conversation)?.delete(userId)) changed();
}

function sweep(): void {
  const now = Date.now();
  let any = false;
  for (const people of typing.values()) {
    for (const [id, until] of people) {
      if (until <= now) {
        people.delete(id);
        any = true;
      }
    }
  }
  if (any) changed();
}

export function clearTyping(): void {
  typing.clear();
  changed();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Typing's conversation keys: a channel's topic, or a direct conversation (its other people). */
export const typingInTopic = (channelId: number, topic: string) => `c:${channelId}/${topic.toLowerCase()}`;
export const typingInDm = (others: number[]) => `d:${[...others].sort((a, b) => a - b).join(',')};`;

/** The people typing in a conversation whose key starts with `prefix` (re-rendered as that changes). */
export function useTyping(prefix: string): number[] {
  useSyncExternalStore(subscribe, () => version);
  const people = new Set<number>();
  for (const [conversation, typists] of typing) if (conversation.startsWith(prefix)) for (const id of typists.keys()) people.add(id);
  return [...people];
}

import { useEffect, useRef } from 'react';
import { api } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { Target } from './Compose';

/** How long after the last keystroke the draft is saved. */
const SAVE_AFTER_MS = 800;

interface DraftBody {
  type: 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

/**
 * Keeps the compose box's text as a server draft while it is typed (POST /drafts, then PATCH
 * /drafts/{id}), as Zulip's web app does with drafts synchronization: saved a moment after the
 * last keystroke and when the narrow changes, removed when the message is sent or the box emptied.
 * Writes go one after another, so a removal never overtakes the creation it removes.
 */
export function useDraftSaver() {
  const id = useRef<number | undefined>(undefined);
  const pending = useRef<{ timer: ReturnType<typeof setTimeout>; body: DraftBody } | null>(null);
  const chain = useRef<Promise<unknown>>(Promise.resolve());

  const queue = (work: () => Promise<unknown>) => {
    chain.current = chain.current.then(work).catch(() => undefined);
  };

  function save(body: DraftBody) {
    queue(async () => {
      if (body.content.trim() === '') {
        if (id.current !== undefined) await ok(typedApi.DELETE('/drafts/{draft_id}', { params: { path: { draft_id: id.current } } }));
        id.current = undefined;
      } else if (id.current !== undefined) {
        await ok(typedApi.PATCH('/drafts/{draft_id}', { params: { path: { draft_id: id.current } }, body: { draft: body } }));
      } else {
        id.current = (await ok(typedApi.POST('/drafts', { body: { drafts: [body] } }))).ids[0];
      }
    });
  }

  function flush() {
    const waiting = pending.current;
    pending.current = null;
    if (waiting) {
      clearTimeout(waiting.timer);
      save(waiting.body);
    }
    // What comes next is another draft.
    queue(async () => {
      id.current = undefined;
    });
  }

  useEffect(() => flush, []);

  return {
    changed(target: Target, content: string) {
      const body: DraftBody =
        target.type === 'stream'
          ? { type: 'stream', to: [target.channelId], topic: target.topic, content, timestamp: Math.floor(Date.now() / 1000) }
          : { type: 'private', to: target.userIds, topic: '', content, timestamp: Math.floor(Date.now() / 1000) };
      if (pending.current) clearTimeout(pending.current.timer);
      pending.current = {
        body,
        timer: setTimeout(() => {
          pending.current = null;
          save(body);
        }, SAVE_AFTER_MS),
      };
    },
    flush,
    /** The message went: its draft goes too. */
    discard() {
      if (pending.current) clearTimeout(pending.current.timer);
      pending.current = null;
      queue(async () => {
        if (id.current !== undefined) await api.delete(`/drafts/${id.current}`);
        id.current = undefined;
      });
    },
    /** A restored draft is the one the box now edits. */
    adopt(draftId: number | undefined) {
      if (draftId === undefined) return;
      queue(async () => {
        id.current = draftId;
      });
    },
  };
}

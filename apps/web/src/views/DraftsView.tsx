import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { Draft } from '../api/types';
import { requestCompose } from '../compose/compose-requests';
import type { ChatState } from '../events/chat-state';
import { narrowHash, type Narrow } from '../narrow/narrow';

/** Where a draft goes, as a narrow and its name. */
export function draftNarrow(draft: Pick<Draft, 'type' | 'to' | 'topic'>, state: ChatState): { narrow: Narrow; name: string } {
  if (draft.type === 'stream') {
    const channelId = draft.to[0];
    const channelName = state.subscriptions.find((sub) => sub.stream_id === channelId)?.name ?? String(channelId);
    return { narrow: { kind: 'channel', channelId, channelName, topic: draft.topic }, name: `#${channelName} › ${draft.topic}` };
  }
  const label = draft.to.map((id) => state.users[id]?.full_name ?? String(id)).join(', ');
  return { narrow: { kind: 'dm', userIds: draft.to, label }, name: label };
}

/** "Drafts": what the compose box saved to the server as it was typed (GET /drafts, kept live by events); restore or delete each. */
export function DraftsView({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const drafts = [...state.drafts].sort((a, b) => b.timestamp - a.timestamp);

  function restore(draft: Draft) {
    const { narrow } = draftNarrow(draft, state);
    window.location.hash = narrowHash(narrow);
    // After the narrow's compose box is shown.
    setTimeout(() => requestCompose({ content: draft.content, draftId: draft.id, topic: draft.type === 'stream' ? draft.topic : undefined, focus: 'message' }), 0);
  }

  return (
    <main className="view page">
      <h1>{t('Drafts')}</h1>
      <section aria-label={t('Drafts')} className="list">
        {drafts.length === 0 && <p className="empty">{t('No drafts.')}</p>}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <ul>
          {drafts.map((draft) => (
            <li key={draft.id} className="card" aria-label={t('Draft to {{recipient}}', { recipient: draftNarrow(draft, state).name })}>
              <strong>{draftNarrow(draft, state).name}</strong>
              <p className="text">{draft.content}</p>
              <button type="button" onClick={() => restore(draft)}>
                {t('Restore draft')}
              </button>
              <button
                type="button"
                className="secondary"
                onClick={() => void ok(typedApi.DELETE('/drafts/{draft_id}', { params: { path: { draft_id: draft.id } } })).catch((failure: unknown) => setError(failure instanceof ApiError ? failure.message : t('Something went wrong. Try again.')))}
              >
                {t('Delete draft')}
              </button>
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}

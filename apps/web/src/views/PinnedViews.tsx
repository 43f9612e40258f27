import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { ChatState } from '../events/chat-state';

/** Whether a built-in view (its fragment: `inbox`, `narrow/is/starred`) is in the sidebar: yes unless I unpinned it. */
export function pinnedBuiltIn(state: ChatState, fragment: string): boolean {
  return state.navigationViews.find((view) => view.fragment === fragment)?.is_pinned !== false;
}

/**
 * The views I pinned (Zulip's navigation views, /navigation_views): each a link with a button
 * "Unpin {{name}}"; "Pin this view" adds the narrow being read under a name I give.
 */
export function PinnedViews({ state, here }: { state: ChatState; here: string }) {
  const { t } = useTranslation();
  const [naming, setNaming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const custom = state.navigationViews.filter((view) => view.name !== undefined && view.is_pinned);
  const fragment = here.slice(1);
  const pinnable = fragment.startsWith('narrow/') && !state.navigationViews.some((view) => view.fragment === fragment && view.is_pinned);

  const act = (work: () => Promise<unknown>) => {
    setError(null);
    work().catch((failure: unknown) => setError(failure instanceof ApiError ? failure.message : t('Something went wrong. Try again.')));
  };

  // Hand-written: the fragment is a path parameter with slashes, which openapi-fetch would escape.
  const unpin = (viewFragment: string) => api.delete(`/navigation_views/${viewFragment}`);

  return (
    <>
      {custom.length > 0 && (
        <ul className="pinned-views">
          {custom.map((view) => (
            <li key={view.fragment}>
              <a href={`#${view.fragment}`} aria-current={here === `#${view.fragment}` ? 'page' : undefined}>
                {view.name}
              </a>
              <button type="button" className="icon" aria-label={t('Unpin {{name}}', { name: view.name })} onClick={() => act(() => unpin(view.fragment))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {naming === null ? (
        pinnable && (
          <button type="button" className="secondary small" onClick={() => setNaming('')}>
            {t('Pin this view')}
          </button>
        )
      ) : (
        <form
          className="pin-view"
          aria-label={t('Pin this view')}
          onSubmit={(event) => {
            event.preventDefault();
            act(() => ok(typedApi.POST('/navigation_views', { body: { fragment, is_pinned: true, name: naming.trim() } })).then(() => setNaming(null)));
          }}
        >
          <input aria-label={t('View name')} value={naming} onChange={(event) => setNaming(event.target.value)} maxLength={100} autoFocus />
          <button type="submit" disabled={naming.trim() === ''}>
            {t('Pin')}
          </button>
          <button type="button" className="secondary" onClick={() => setNaming(null)}>
            {t('Cancel')}
          </button>
        </form>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </>
  );
}

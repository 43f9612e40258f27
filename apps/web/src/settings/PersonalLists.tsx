import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { SavedSnippet } from '../api/types';
import type { ChatState } from '../events/chat-state';
import { Outcome, useOutcome } from './outcome';

/** Alert words (Zulip's settings page): the list, each deletable, and a form adding one. The alert_words events keep it current. */
export function AlertWordsForm({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const [word, setWord] = useState('');
  const words = [...state.alertWords].sort((a, b) => a.localeCompare(b));
  function add(event: FormEvent) {
    event.preventDefault();
    void run(() => ok(typedApi.POST('/users/me/alert_words', { body: { alert_words: [word.trim()] } }))).then((done) => done && setWord(''));
  }
  return (
    <form aria-label={t('Alert words')} onSubmit={add}>
      <h2>{t('Alert words')}</h2>
      <p className="muted">{t('You will be notified of messages that contain any of your alert words.')}</p>
      {words.length === 0 ? (
        <p className="muted">{t('You have no alert words.')}</p>
      ) : (
        <ul aria-label={t('Your alert words')} className="plain">
          {words.map((w) => (
            <li key={w}>
              <span>{w}</span>{' '}
              <button type="button" className="secondary small" onClick={() => void run(() => api.delete('/users/me/alert_words', { alert_words: [w] }))}>
                {t('Delete alert word {{word}}', { word: w })}
              </button>
            </li>
          ))}
        </ul>
      )}
      <label htmlFor="alert-word">{t('New alert word')}</label>
      <input id="alert-word" value={word} onChange={(event) => setWord(event.target.value)} maxLength={100} required />
      <button type="submit" disabled={word.trim() === ''}>
        {t('Add alert word')}
      </button>
      <Outcome outcome={outcome} />
    </form>
  );
}

/** One saved snippet: its title and text, edited in place or deleted. */
function SnippetItem({ snippet }: { snippet: SavedSnippet }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const [editing, setEditing] = useState<{ title: string; content: string } | null>(null);
  const path = { saved_snippet_id: snippet.id };
  if (editing)
    return (
      <li className="card">
        <form
          aria-label={t('Edit saved snippet {{title}}', { title: snippet.title })}
          onSubmit={(event) => {
            event.preventDefault();
            void run(() => ok(typedApi.PATCH('/saved_snippets/{saved_snippet_id}', { params: { path }, body: { title: editing.title, content: editing.content } }))).then((done) => done && setEditing(null));
          }}
        >
          <label htmlFor={`snippet-title-${snippet.id}`}>{t('Title')}</label>
          <input id={`snippet-title-${snippet.id}`} value={editing.title} maxLength={60} required onChange={(event) => setEditing({ ...editing, title: event.target.value })} />
          <label htmlFor={`snippet-content-${snippet.id}`}>{t('Content')}</label>
          <textarea id={`snippet-content-${snippet.id}`} value={editing.content} rows={3} required onChange={(event) => setEditing({ ...editing, content: event.target.value })} />
          <div className="row">
            <button type="submit">{t('Save')}</button>
            <button type="button" className="secondary" onClick={() => setEditing(null)}>
              {t('Cancel')}
            </button>
          </div>
          <Outcome outcome={outcome} />
        </form>
      </li>
    );
  return (
    <li className="card">
      <strong>{snippet.title}</strong>
      <p className="text">{snippet.content}</p>
      <div className="row">
        <button type="button" className="secondary small" onClick={() => setEditing({ title: snippet.title, content: snippet.content })}>
          {t('Edit {{title}}', { title: snippet.title })}
        </button>
        <button type="button" className="secondary small" onClick={() => void run(() => ok(typedApi.DELETE('/saved_snippets/{saved_snippet_id}', { params: { path } })))}>
          {t('Delete {{title}}', { title: snippet.title })}
        </button>
      </div>
      <Outcome outcome={outcome} />
    </li>
  );
}

/** Saved snippets (Zulip's settings and compose menu): the list, each edited or deleted, and a form adding one. */
export function SavedSnippetsForm({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  function add(event: FormEvent) {
    event.preventDefault();
    void run(() => ok(typedApi.POST('/saved_snippets', { body: { title, content } }))).then((done) => {
      if (!done) return;
      setTitle('');
      setContent('');
    });
  }
  return (
    <section aria-label={t('Saved snippets')}>
      <h2>{t('Saved snippets')}</h2>
      {state.savedSnippets.length === 0 ? (
        <p className="muted">{t('You have no saved snippets.')}</p>
      ) : (
        <ul aria-label={t('Your saved snippets')} className="plain">
          {state.savedSnippets.map((snippet) => (
            <SnippetItem key={snippet.id} snippet={snippet} />
          ))}
        </ul>
      )}
      <form aria-label={t('Add a new saved snippet')} onSubmit={add}>
        <h3>{t('Add a new saved snippet')}</h3>
        <label htmlFor="snippet-title">{t('Title')}</label>
        <input id="snippet-title" value={title} maxLength={60} required onChange={(event) => setTitle(event.target.value)} />
        <label htmlFor="snippet-content">{t('Content')}</label>
        <textarea id="snippet-content" value={content} rows={3} required onChange={(event) => setContent(event.target.value)} />
        <button type="submit" disabled={title.trim() === '' || content.trim() === ''}>
          {t('Save snippet')}
        </button>
        <Outcome outcome={outcome} />
      </form>
    </section>
  );
}

/** Muted users (Zulip's settings page): who I muted and when, each with "Unmute". */
export function MutedUsersList({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const muted = Object.entries(state.mutedUsers)
    .map(([id, when]) => ({ id: Number(id), when, name: state.users[Number(id)]?.full_name ?? t('Someone') }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section aria-label={t('Muted users')}>
      <h2>{t('Muted users')}</h2>
      {muted.length === 0 ? (
        <p className="muted">{t('You have not muted any users yet.')}</p>
      ) : (
        <table aria-label={t('Muted users')}>
          <thead>
            <tr>
              <th scope="col">{t('Name')}</th>
              <th scope="col">{t('Date muted')}</th>
              <th scope="col">{t('Actions')}</th>
            </tr>
          </thead>
          <tbody>
            {muted.map((person) => (
              <tr key={person.id}>
                <th scope="row">{person.name}</th>
                <td>{new Date(person.when * 1000).toLocaleDateString()}</td>
                <td>
                  <button type="button" className="secondary small" onClick={() => void run(() => ok(typedApi.DELETE('/users/me/muted_users/{muted_user_id}', { params: { path: { muted_user_id: person.id } } })))}>
                    {t('Unmute {{name}}', { name: person.name })}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Outcome outcome={outcome} />
    </section>
  );
}

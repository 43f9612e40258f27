import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ok, typedApi } from '../api/typed-client';
import type { Linkifier } from '../api/types';
import type { ChatState } from '../events/chat-state';
import { Outcome, useOutcome } from './outcome';

/** One linkifier's row: its pattern and URL template, edited in place, deleted, or moved up or down the order. */
function LinkifierRow({ linkifier, index, all, run }: { linkifier: Linkifier; index: number; all: Linkifier[]; run: (work: () => Promise<unknown>) => Promise<boolean> }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ pattern: string; url_template: string } | null>(null);
  const path = { filter_id: linkifier.id };
  const move = (by: number) => {
    const ids = all.map((l) => l.id);
    [ids[index], ids[index + by]] = [ids[index + by], ids[index]];
    void run(() => ok(typedApi.PATCH('/realm/linkifiers', { body: { ordered_linkifier_ids: ids } })));
  };
  if (editing)
    return (
      <tr>
        <td>
          <input aria-label={t('Pattern of linkifier {{pattern}}', { pattern: linkifier.pattern })} value={editing.pattern} onChange={(event) => setEditing({ ...editing, pattern: event.target.value })} />
        </td>
        <td>
          <input aria-label={t('URL template of linkifier {{pattern}}', { pattern: linkifier.pattern })} value={editing.url_template} onChange={(event) => setEditing({ ...editing, url_template: event.target.value })} />
        </td>
        <td>
          <button type="button" className="small" onClick={() => void run(() => ok(typedApi.PATCH('/realm/filters/{filter_id}', { params: { path }, body: editing }))).then((done) => done && setEditing(null))}>
            {t('Save changes')}
          </button>{' '}
          <button type="button" className="secondary small" onClick={() => setEditing(null)}>
            {t('Cancel')}
          </button>
        </td>
      </tr>
    );
  return (
    <tr>
      <td>
        <code>{linkifier.pattern}</code>
      </td>
      <td>
        <code>{linkifier.url_template}</code>
      </td>
      <td className="row">
        <button type="button" className="secondary small" onClick={() => setEditing({ pattern: linkifier.pattern, url_template: linkifier.url_template })}>
          {t('Edit linkifier {{pattern}}', { pattern: linkifier.pattern })}
        </button>
        <button type="button" className="secondary small" onClick={() => void run(() => ok(typedApi.DELETE('/realm/filters/{filter_id}', { params: { path } })))}>
          {t('Delete linkifier {{pattern}}', { pattern: linkifier.pattern })}
        </button>
        <button type="button" className="secondary small" disabled={index === 0} onClick={() => move(-1)}>
          {t('Move {{pattern}} up', { pattern: linkifier.pattern })}
        </button>
        <button type="button" className="secondary small" disabled={index === all.length - 1} onClick={() => move(1)}>
          {t('Move {{pattern}} down', { pattern: linkifier.pattern })}
        </button>
      </td>
    </tr>
  );
}

/**
 * Linkifiers (#organization/linkifiers): the list in the order they apply, each edited, deleted or
 * moved; "Add a new linkifier". The realm_linkifiers events keep it current.
 */
export function AdminLinkifiers({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const [pattern, setPattern] = useState('');
  const [template, setTemplate] = useState('');
  function add(event: FormEvent) {
    event.preventDefault();
    void run(() => ok(typedApi.POST('/realm/filters', { body: { pattern, url_template: template } }))).then((done) => {
      if (!done) return;
      setPattern('');
      setTemplate('');
    });
  }
  return (
    <>
      <form aria-label={t('Add a new linkifier')} onSubmit={add}>
        <h2>{t('Add a new linkifier')}</h2>
        <p className="muted">{t('Linkifiers turn text matching a pattern into a link, e.g. #(?P<id>[0-9]+) with https://github.com/zulip/zulip/issues/{id}.')}</p>
        <label htmlFor="linkifier-pattern">{t('Pattern')}</label>
        <input id="linkifier-pattern" value={pattern} onChange={(event) => setPattern(event.target.value)} required />
        <label htmlFor="linkifier-template">{t('URL template')}</label>
        <input id="linkifier-template" value={template} onChange={(event) => setTemplate(event.target.value)} required />
        <button type="submit" disabled={pattern === '' || template === ''}>
          {t('Add linkifier')}
        </button>
      </form>
      <Outcome outcome={outcome} />
      <table aria-label={t('Linkifiers')}>
        <thead>
          <tr>
            <th scope="col">{t('Pattern')}</th>
            <th scope="col">{t('URL template')}</th>
            <th scope="col">{t('Actions')}</th>
          </tr>
        </thead>
        <tbody>
          {state.linkifiers.map((linkifier, index) => (
            <LinkifierRow key={linkifier.id} linkifier={linkifier} index={index} all={state.linkifiers} run={run} />
          ))}
        </tbody>
      </table>
    </>
  );
}

/** Code playgrounds (#organization/playgrounds): the list, each deletable, and "Add a new code playground". */
export function AdminPlaygrounds({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const [language, setLanguage] = useState('');
  const [name, setName] = useState('');
  const [template, setTemplate] = useState('');
  function add(event: FormEvent) {
    event.preventDefault();
    void run(() => ok(typedApi.POST('/realm/playgrounds', { body: { name, pygments_language: language, url_template: template } }))).then((done) => {
      if (!done) return;
      setLanguage('');
      setName('');
      setTemplate('');
    });
  }
  return (
    <>
      <form aria-label={t('Add a new code playground')} onSubmit={add}>
        <h2>{t('Add a new code playground')}</h2>
        <label htmlFor="playground-language">{t('Language')}</label>
        <input id="playground-language" value={language} onChange={(event) => setLanguage(event.target.value)} required />
        <label htmlFor="playground-name">{t('Name')}</label>
        <input id="playground-name" value={name} onChange={(event) => setName(event.target.value)} required />
        <label htmlFor="playground-template">{t('URL template')}</label>
        <input id="playground-template" value={template} onChange={(event) => setTemplate(event.target.value)} required />
        <button type="submit" disabled={language === '' || name === '' || template === ''}>
          {t('Add code playground')}
        </button>
      </form>
      <Outcome outcome={outcome} />
      <table aria-label={t('Code playgrounds')}>
        <thead>
          <tr>
            <th scope="col">{t('Language')}</th>
            <th scope="col">{t('Name')}</th>
            <th scope="col">{t('URL template')}</th>
            <th scope="col">{t('Actions')}</th>
          </tr>
        </thead>
        <tbody>
          {state.playgrounds.map((playground) => (
            <tr key={playground.id}>
              <td>{playground.pygments_language}</td>
              <th scope="row">{playground.name}</th>
              <td>
                <code>{playground.url_template}</code>
              </td>
              <td>
                <button type="button" className="secondary small" onClick={() => void run(() => ok(typedApi.DELETE('/realm/playgrounds/{playground_id}', { params: { path: { playground_id: playground.id } } })))}>
                  {t('Delete playground {{name}}', { name: playground.name })}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

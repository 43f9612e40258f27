import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ok, typedApi, type FormBody } from '../api/typed-client';
import type { ProfileField } from '../api/types';
import type { ChatState } from '../events/chat-state';
import { t as translate } from '../i18n/i18n';
import { FIELD_TYPES, selectOptions } from './PersonalExtras';
import { Outcome, useOutcome } from './outcome';

/** Zulip's field types, as its "Add a new profile field" form names them. */
const TYPE_NAMES: [number, () => string][] = [
  [FIELD_TYPES.SHORT_TEXT, () => translate('Text (short)')],
  [FIELD_TYPES.LONG_TEXT, () => translate('Text (long)')],
  [FIELD_TYPES.SELECT, () => translate('List of options')],
  [FIELD_TYPES.DATE, () => translate('Date')],
  [FIELD_TYPES.URL, () => translate('Link')],
  [FIELD_TYPES.USER, () => translate('Users')],
  [FIELD_TYPES.EXTERNAL_ACCOUNT, () => translate('External account')],
  [FIELD_TYPES.PRONOUNS, () => translate('Pronouns')],
];
const typeName = (type: number) => TYPE_NAMES.find(([id]) => id === type)?.[1]() ?? String(type);

/** A select field's options as Zulip's field_data: `{"0": {"text", "order"}, …}`. */
const optionsData = (lines: string) =>
  Object.fromEntries(
    lines
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .map((text, i) => [String(i), { text, order: String(i + 1) }]),
  );

/** One field's row: name, type, hint; edited in place (name, hint, options), deleted, or moved. */
function FieldRow({ field, index, all, run }: { field: ProfileField; index: number; all: ProfileField[]; run: (work: () => Promise<unknown>) => Promise<boolean> }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ name: string; hint: string; options: string } | null>(null);
  const path = { field_id: field.id };
  const move = (by: number) => {
    const ids = all.map((f) => f.id);
    [ids[index], ids[index + by]] = [ids[index + by], ids[index]];
    void run(() => ok(typedApi.PATCH('/realm/profile_fields', { body: { order: ids } })));
  };
  if (editing)
    return (
      <tr>
        <td colSpan={4}>
          <form
            aria-label={t('Edit field {{name}}', { name: field.name })}
            className="inline"
            onSubmit={(event) => {
              event.preventDefault();
              const body: FormBody<'/realm/profile_fields/{field_id}', 'patch'> = { name: editing.name, hint: editing.hint };
              if (field.type === FIELD_TYPES.SELECT) body.field_data = optionsData(editing.options);
              void run(() => ok(typedApi.PATCH('/realm/profile_fields/{field_id}', { params: { path }, body }))).then((done) => done && setEditing(null));
            }}
          >
            <label htmlFor={`field-name-${field.id}`}>{t('Label')}</label>
            <input id={`field-name-${field.id}`} value={editing.name} onChange={(event) => setEditing({ ...editing, name: event.target.value })} maxLength={40} />
            <label htmlFor={`field-hint-${field.id}`}>{t('Hint')}</label>
            <input id={`field-hint-${field.id}`} value={editing.hint} onChange={(event) => setEditing({ ...editing, hint: event.target.value })} maxLength={80} />
            {field.type === FIELD_TYPES.SELECT && (
              <>
                <label htmlFor={`field-options-${field.id}`}>{t('Options, one per line')}</label>
                <textarea id={`field-options-${field.id}`} rows={3} value={editing.options} onChange={(event) => setEditing({ ...editing, options: event.target.value })} />
              </>
            )}
            <div className="row">
              <button type="submit">{t('Save changes')}</button>
              <button type="button" className="secondary" onClick={() => setEditing(null)}>
                {t('Cancel')}
              </button>
            </div>
          </form>
        </td>
      </tr>
    );
  return (
    <tr>
      <th scope="row">{field.name}</th>
      <td>{typeName(field.type)}</td>
      <td>{field.hint}</td>
      <td className="row">
        <button
          type="button"
          className="secondary small"
          onClick={() =>
            setEditing({
              name: field.name,
              hint: field.hint,
              options: selectOptions(field)
                .map((option) => option.text)
                .join('\n'),
            })
          }
        >
          {t('Edit field {{name}}', { name: field.name })}
        </button>
        <button type="button" className="secondary small" onClick={() => void run(() => ok(typedApi.DELETE('/realm/profile_fields/{field_id}', { params: { path } })))}>
          {t('Delete field {{name}}', { name: field.name })}
        </button>
        <button type="button" className="secondary small" disabled={index === 0} onClick={() => move(-1)}>
          {t('Move {{name}} up', { name: field.name })}
        </button>
        <button type="button" className="secondary small" disabled={index === all.length - 1} onClick={() => move(1)}>
          {t('Move {{name}} down', { name: field.name })}
        </button>
      </td>
    </tr>
  );
}

/**
 * Custom profile fields (#organization/profile-fields): the list in order (edit, delete, move)
 * and "Add a new profile field" with its type; a list of options takes one option a line, an
 * external account its kind (GitHub, X, or a custom URL pattern). The custom_profile_fields
 * events keep it current.
 */
export function AdminProfileFields({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const empty = { name: '', hint: '', type: String(FIELD_TYPES.SHORT_TEXT), options: '', subtype: 'github', urlPattern: '', summary: false, required: false, editable: true };
  const [form, setForm] = useState(empty);
  const type = Number(form.type);
  const change = (patch: Partial<typeof form>) => setForm((all) => ({ ...all, ...patch }));

  function add(event: FormEvent) {
    event.preventDefault();
    const body: FormBody<'/realm/profile_fields', 'post'> = { name: form.name, hint: form.hint, field_type: type, display_in_profile_summary: form.summary, required: form.required, editable_by_user: form.editable };
    if (type === FIELD_TYPES.SELECT) body.field_data = optionsData(form.options);
    if (type === FIELD_TYPES.EXTERNAL_ACCOUNT) body.field_data = form.subtype === 'custom' ? { subtype: 'custom', url_pattern: form.urlPattern } : { subtype: form.subtype };
    // Emptied once added, unless the administrator has already begun the next field meanwhile
    // (the new row can appear, by its event, before the answer does).
    const submitted = form;
    void run(() => ok(typedApi.POST('/realm/profile_fields', { body }))).then((done) => done && setForm((current) => (current === submitted ? empty : current)));
  }

  return (
    <>
      <form aria-label={t('Add a new profile field')} onSubmit={add}>
        <h2>{t('Add a new profile field')}</h2>
        <label htmlFor="new-field-type">{t('Type')}</label>
        <select id="new-field-type" value={form.type} onChange={(event) => change({ type: event.target.value })}>
          {TYPE_NAMES.map(([id, name]) => (
            <option key={id} value={id}>
              {name()}
            </option>
          ))}
        </select>
        {type === FIELD_TYPES.EXTERNAL_ACCOUNT && (
          <>
            <label htmlFor="new-field-subtype">{t('External account type')}</label>
            <select id="new-field-subtype" value={form.subtype} onChange={(event) => change({ subtype: event.target.value })}>
              <option value="github">GitHub</option>
              <option value="twitter">X (Twitter)</option>
              <option value="custom">{t('Custom')}</option>
            </select>
            {form.subtype === 'custom' && (
              <>
                <label htmlFor="new-field-url-pattern">{t('URL pattern')}</label>
                <input id="new-field-url-pattern" value={form.urlPattern} placeholder="https://example.com/%(username)s" onChange={(event) => change({ urlPattern: event.target.value })} />
              </>
            )}
          </>
        )}
        {!(type === FIELD_TYPES.EXTERNAL_ACCOUNT && form.subtype !== 'custom') && (
          <>
            <label htmlFor="new-field-name">{t('Label')}</label>
            <input id="new-field-name" value={form.name} onChange={(event) => change({ name: event.target.value })} maxLength={40} />
            <label htmlFor="new-field-hint">{t('Hint')}</label>
            <input id="new-field-hint" value={form.hint} onChange={(event) => change({ hint: event.target.value })} maxLength={80} />
          </>
        )}
        {type === FIELD_TYPES.SELECT && (
          <>
            <label htmlFor="new-field-options">{t('Options, one per line')}</label>
            <textarea id="new-field-options" rows={3} value={form.options} onChange={(event) => change({ options: event.target.value })} />
          </>
        )}
        <label className="choice">
          <input type="checkbox" checked={form.summary} onChange={(event) => change({ summary: event.target.checked })} /> {t('Display in profile summary')}
        </label>
        <label className="choice">
          <input type="checkbox" checked={form.required} onChange={(event) => change({ required: event.target.checked })} /> {t('Required field')}
        </label>
        <label className="choice">
          <input type="checkbox" checked={form.editable} onChange={(event) => change({ editable: event.target.checked })} /> {t('Users can edit this field for their own account')}
        </label>
        <button type="submit">{t('Add field')}</button>
      </form>
      <Outcome outcome={outcome} />
      <table aria-label={t('Custom profile fields')}>
        <thead>
          <tr>
            <th scope="col">{t('Label')}</th>
            <th scope="col">{t('Type')}</th>
            <th scope="col">{t('Hint')}</th>
            <th scope="col">{t('Actions')}</th>
          </tr>
        </thead>
        <tbody>
          {state.profileFields.map((field, index) => (
            <FieldRow key={field.id} field={field} index={index} all={state.profileFields} run={run} />
          ))}
        </tbody>
      </table>
    </>
  );
}

import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, postFile } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { ProfileField } from '../api/types';
import type { ChatState } from '../events/chat-state';
import { Avatar } from '../people/Avatar';
import { parseJson } from '../people/UserCard';
import { Outcome, useOutcome } from './outcome';

/** Avatar: the current one, upload a new image (POST /users/me/avatar), or delete it (back to the default). */
export function AvatarForm({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const file = useRef<HTMLInputElement>(null);
  return (
    <form aria-label={t('Avatar')} onSubmit={(event) => event.preventDefault()}>
      <h2>{t('Avatar')}</h2>
      <div className="row">
        <Avatar user={{ full_name: state.me.full_name, avatar_url: state.avatarUrl }} size={64} alt={t('Your avatar')} />
      </div>
      <label htmlFor="settings-avatar">{t('Upload new avatar')}</label>
      <input
        id="settings-avatar"
        ref={file}
        type="file"
        accept="image/*"
        onChange={(event) => {
          const chosen = event.target.files?.[0];
          if (!chosen) return;
          void run(() => postFile('/users/me/avatar', chosen)).then(() => {
            if (file.current) file.current.value = '';
          });
        }}
      />
      <button type="button" className="secondary" onClick={() => void run(() => api.delete('/users/me/avatar'))}>
        {t('Delete avatar')}
      </button>
      <Outcome outcome={outcome} />
    </form>
  );
}

/** Zulip's custom profile field types. */
export const FIELD_TYPES = { SHORT_TEXT: 1, LONG_TEXT: 2, SELECT: 3, DATE: 4, URL: 5, USER: 6, EXTERNAL_ACCOUNT: 7, PRONOUNS: 8 } as const;

/** A select field's options, in their order. */
export function selectOptions(field: ProfileField): { key: string; text: string }[] {
  const data = parseJson<Record<string, { text: string; order: string }>>(field.field_data) ?? {};
  return Object.entries(data)
    .sort(([, a], [, b]) => Number(a.order) - Number(b.order))
    .map(([key, option]) => ({ key, text: option.text }));
}

/** The value an input shows for a stored value (a Users field's first person's id). */
function inputValue(field: ProfileField, stored: string | undefined): string {
  if (stored === undefined) return '';
  if (field.type === FIELD_TYPES.USER) return String(parseJson<number[]>(stored)?.[0] ?? '');
  return stored;
}

/**
 * My custom profile fields (PATCH /users/me/profile_data; DELETE for the ones emptied), as the
 * organization defines them; fields I may not edit are shown, not offered.
 */
export function ProfileDataForm({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const me = state.users[state.me.user_id];
  const stored = (field: ProfileField) => inputValue(field, me?.profile_data?.[field.id]?.value);
  const [values, setValues] = useState<Record<number, string>>({});
  const value = (field: ProfileField) => values[field.id] ?? stored(field);
  const fields = state.profileFields;
  if (fields.length === 0) return null;
  const people = Object.values(state.users)
    .filter((user) => user.is_active !== false && !user.is_bot)
    .sort((a, b) => a.full_name.localeCompare(b.full_name));

  function save(event: FormEvent) {
    event.preventDefault();
    const editable = fields.filter((field) => (field.editable_by_user || state.me.isAdmin) && values[field.id] !== undefined && values[field.id] !== stored(field));
    const set = editable.filter((field) => values[field.id].trim() !== '').map((field) => ({ id: field.id, value: field.type === FIELD_TYPES.USER ? [Number(values[field.id])] : values[field.id].trim() }));
    const cleared = editable.filter((field) => values[field.id].trim() === '').map((field) => field.id);
    void run(async () => {
      if (set.length > 0) await ok(typedApi.PATCH('/users/me/profile_data', { body: { data: set } }));
      if (cleared.length > 0) await api.delete('/users/me/profile_data', { data: cleared });
    }).then((done) => done && setValues({}));
  }

  return (
    <form aria-label={t('Profile fields')} onSubmit={save}>
      <h2>{t('Profile fields')}</h2>
      {fields.map((field) => {
        const id = `profile-field-${field.id}`;
        const disabled = !field.editable_by_user && !state.me.isAdmin;
        const change = (next: string) => setValues((all) => ({ ...all, [field.id]: next }));
        const common = { id, disabled, value: value(field), 'aria-describedby': field.hint ? `${id}-hint` : undefined };
        let input;
        if (field.type === FIELD_TYPES.LONG_TEXT) input = <textarea {...common} rows={3} onChange={(event) => change(event.target.value)} />;
        else if (field.type === FIELD_TYPES.SELECT || field.type === FIELD_TYPES.USER)
          input = (
            <select {...common} onChange={(event) => change(event.target.value)}>
              <option value="">{t('Not set')}</option>
              {field.type === FIELD_TYPES.SELECT
                ? selectOptions(field).map((option) => (
                    <option key={option.key} value={option.key}>
                      {option.text}
                    </option>
                  ))
                : people.map((user) => (
                    <option key={user.user_id} value={user.user_id}>
                      {user.full_name}
                    </option>
                  ))}
            </select>
          );
        else input = <input {...common} type={field.type === FIELD_TYPES.DATE ? 'date' : field.type === FIELD_TYPES.URL ? 'url' : 'text'} onChange={(event) => change(event.target.value)} />;
        return (
          <div key={field.id} className="field">
            <label htmlFor={id}>
              {field.name}
              {field.required ? ' *' : ''}
            </label>
            {input}
            {field.hint && (
              <span id={`${id}-hint`} className="muted">
                {field.hint}
              </span>
            )}
          </div>
        );
      })}
      <button type="submit">{t('Save profile fields')}</button>
      <Outcome outcome={outcome} />
    </form>
  );
}

/**
 * "Manage your API key": generate a new one (POST /users/me/api_key/regenerate), which is shown
 * once; the old one stops working at once. The current key is never sent to the browser
 * (the server serves no /json/fetch_api_key), so it is not shown.
 */
export function ApiKeyForm() {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const [confirming, setConfirming] = useState(false);
  const [key, setKey] = useState<string | null>(null);
  return (
    <form aria-label={t('Manage your API key')} onSubmit={(event) => event.preventDefault()}>
      <h2>{t('Manage your API key')}</h2>
      <p className="muted">{t('Your API key lets apps and scripts use the API as you. Generating a new one makes the old one stop working at once, and logs you out of your browser sessions: copy it before you go on.')}</p>
      {key !== null && (
        <>
          <label htmlFor="settings-api-key">{t('Your API key')}</label>
          <input id="settings-api-key" readOnly value={key} onFocus={(event) => event.target.select()} />
        </>
      )}
      {confirming ? (
        <div className="row">
          <button
            type="button"
            className="danger"
            onClick={() =>
              void run(async () => {
                setKey((await ok(typedApi.POST('/users/me/api_key/regenerate'))).api_key);
              }, t('A new API key was generated.')).then(() => setConfirming(false))
            }
          >
            {t('Confirm: generate new API key')}
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            {t('Cancel')}
          </button>
        </div>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>
          {t('Generate new API key')}
        </button>
      )}
      <Outcome outcome={outcome} />
    </form>
  );
}

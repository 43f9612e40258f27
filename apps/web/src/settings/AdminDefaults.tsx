import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ok, typedApi } from '../api/typed-client';
import type { ChatState } from '../events/chat-state';
import { Outcome, useOutcome } from './outcome';

/**
 * The organization's defaults for new users (#organization/defaults): theme and notification
 * settings, through PATCH /realm/user_settings_defaults; the realm_user_settings_defaults events
 * confirm them.
 */
export function AdminDefaults({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const [chosen, setChosen] = useState<Record<string, unknown>>({});
  const value = (name: string) => (name in chosen ? chosen[name] : state.realmDefaults[name]);
  const save = (name: string, next: unknown) => {
    setChosen((all) => ({ ...all, [name]: next }));
    void run(() => ok(typedApi.PATCH('/realm/user_settings_defaults', { body: { [name]: next } }))).then(
      (done) => done || setChosen(({ [name]: _, ...rest }) => rest),
    );
  };
  const toggles: [string, string][] = [
    ['enable_stream_desktop_notifications', t('Desktop notifications for channel messages')],
    ['enable_stream_email_notifications', t('Emails for channel messages')],
    ['enable_offline_email_notifications', t('Emails for direct messages and mentions while away')],
    ['enable_digest_emails', t('Digest emails while away')],
    ['enter_sends', t('Enter sends a message')],
  ];
  return (
    <form aria-label={t('Default settings for new users')} onSubmit={(event) => event.preventDefault()}>
      <h2>{t('Default settings for new users')}</h2>
      <label htmlFor="default-theme">{t('Theme')}</label>
      <select id="default-theme" value={String(value('color_scheme') ?? 1)} onChange={(event) => save('color_scheme', Number(event.target.value))}>
        <option value="1">{t('Automatic (follows the system)')}</option>
        <option value="2">{t('Dark')}</option>
        <option value="3">{t('Light')}</option>
      </select>
      {toggles.map(([name, label]) => (
        <label key={name} className="choice">
          <input type="checkbox" checked={value(name) === true} onChange={(event) => save(name, event.target.checked)} /> {label}
        </label>
      ))}
      <Outcome outcome={outcome} />
    </form>
  );
}

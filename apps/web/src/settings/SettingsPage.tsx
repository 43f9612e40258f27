import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ok, typedApi } from '../api/typed-client';
import type { ChatState } from '../events/chat-state';
import { t as translate } from '../i18n/i18n';
import { ChannelSettings } from './ChannelSettings';
import { EmailForm, NotificationsForm } from './NotificationSettings';
import { Outcome, useOutcome } from './outcome';

/** Profile: the full name (PATCH /settings full_name). */
function ProfileForm({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const [name, setName] = useState(state.me.full_name);
  const { outcome, run } = useOutcome();
  return (
    <form
      aria-label={t('Profile')}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void run(() => ok(typedApi.PATCH('/settings', { body: { full_name: name } })));
      }}
    >
      <h2>{t('Profile')}</h2>
      <label htmlFor="settings-name">{t('Full name')}</label>
      <input id="settings-name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={100} />
      <button type="submit">{t('Save name')}</button>
      <Outcome outcome={outcome} />
    </form>
  );
}

/** Password: the current one and a new one (PATCH /settings); the server ends the other sessions. */
function PasswordForm() {
  const { t } = useTranslation();
  const [old, setOld] = useState('');
  const [next, setNext] = useState('');
  const { outcome, run } = useOutcome();
  return (
    <form
      aria-label={t('Password')}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void run(() => ok(typedApi.PATCH('/settings', { body: { old_password: old, new_password: next } })), translate('Your password was changed.')).then((done) => {
          if (done) {
            setOld('');
            setNext('');
          }
        });
      }}
    >
      <h2>{t('Password')}</h2>
      <label htmlFor="settings-old-password">{t('Current password')}</label>
      <input id="settings-old-password" type="password" autoComplete="current-password" value={old} onChange={(event) => setOld(event.target.value)} required />
      <label htmlFor="settings-new-password">{t('New password')}</label>
      <input id="settings-new-password" type="password" autoComplete="new-password" value={next} onChange={(event) => setNext(event.target.value)} required />
      <button type="submit">{t('Change password')}</button>
      <Outcome outcome={outcome} />
    </form>
  );
}

/** Display: the theme (Zulip's color_scheme: automatic, dark, light), applied as soon as the event comes back. */
function DisplayForm({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  // The choice shows at once; the page's theme follows when the server's event confirms it.
  const [chosen, setChosen] = useState<number | null>(null);
  const choose = (value: number) => {
    setChosen(value);
    void run(() => ok(typedApi.PATCH('/settings', { body: { color_scheme: value } }))).then((done) => done || setChosen(null));
  };
  const choices: [number, string][] = [
    [1, t('Automatic (follows the system)')],
    [2, t('Dark')],
    [3, t('Light')],
  ];
  return (
    <form aria-label={t('Display')} onSubmit={(event) => event.preventDefault()}>
      <h2>{t('Display')}</h2>
      <fieldset>
        <legend>{t('Theme')}</legend>
        {choices.map(([value, label]) => (
          <label key={value} className="choice">
            <input type="radio" name="theme" checked={(chosen ?? state.colorScheme) === value} onChange={() => choose(value)} /> {label}
          </label>
        ))}
      </fieldset>
      <Outcome outcome={outcome} />
    </form>
  );
}

/** The personal settings page (#settings): profile, email, password, display, notifications and each channel's settings. */
export function SettingsPage({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  return (
    <main className="view page">
      <h1>{t('Settings')}</h1>
      <div className="settings">
        <ProfileForm state={state} />
        <EmailForm state={state} />
        <PasswordForm />
        <DisplayForm state={state} />
        <NotificationsForm state={state} />
        <ChannelSettings state={state} />
      </div>
    </main>
  );
}

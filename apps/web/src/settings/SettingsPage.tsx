import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ok, typedApi } from '../api/typed-client';
import type { ChatState } from '../events/chat-state';
import { t as translate } from '../i18n/i18n';
import { ExportConsentForm } from './AdminExport';
import { ChannelSettings } from './ChannelSettings';
import { EmailForm, NotificationsForm } from './NotificationSettings';
import { Outcome, useOutcome } from './outcome';
import { ApiKeyForm, AvatarForm, ProfileDataForm } from './PersonalExtras';
import { BotsSettings } from './PersonalBots';
import { AlertWordsForm, MutedUsersList, SavedSnippetsForm } from './PersonalLists';

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

/** The personal settings sections: #settings (profile and account), #settings/alert-words, …/saved-snippets, …/muted-users, …/bots. */
const SECTIONS = ['profile', 'alert-words', 'saved-snippets', 'muted-users', 'bots'] as const;
type Section = (typeof SECTIONS)[number];

/**
 * The personal settings page (#settings/<section>): profile (name, avatar, profile fields),
 * email, password, API key, privacy (export consent), display, notifications and each channel's
 * settings; alert words; saved snippets; muted users; bots.
 */
export function SettingsPage({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const asked = window.location.hash.split('/')[1] as Section | undefined;
  const section: Section = asked && SECTIONS.includes(asked) ? asked : 'profile';
  const names: Record<Section, string> = { profile: t('Profile and account'), 'alert-words': t('Alert words'), 'saved-snippets': t('Saved snippets'), 'muted-users': t('Muted users'), bots: t('Bots') };
  return (
    <main className="view page">
      <h1>{t('Settings')}</h1>
      <nav aria-label={t('Personal settings')} className="tabs">
        {SECTIONS.map((name) => (
          <a key={name} href={name === 'profile' ? '#settings' : `#settings/${name}`} aria-current={name === section ? 'page' : undefined}>
            {names[name]}
          </a>
        ))}
      </nav>
      <div className="settings">
        {section === 'profile' && (
          <>
            <ProfileForm state={state} />
            <AvatarForm state={state} />
            <ProfileDataForm state={state} />
            <EmailForm state={state} />
            <PasswordForm />
            <ApiKeyForm />
            <ExportConsentForm state={state} />
            <DisplayForm state={state} />
            <NotificationsForm state={state} />
            <ChannelSettings state={state} />
          </>
        )}
        {section === 'alert-words' && <AlertWordsForm state={state} />}
        {section === 'saved-snippets' && <SavedSnippetsForm state={state} />}
        {section === 'muted-users' && <MutedUsersList state={state} />}
        {section === 'bots' && <BotsSettings state={state} />}
      </div>
    </main>
  );
}

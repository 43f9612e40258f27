import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ok, typedApi } from '../api/typed-client';
import type { ChatState } from '../events/chat-state';
import { Outcome, useOutcome } from './outcome';

/** Email: a new address (PATCH /settings email); the server mails it a confirmation link, and the address changes once it is followed. */
export function EmailForm({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(state.deliveryEmail);
  const { outcome, run } = useOutcome();
  return (
    <form
      aria-label={t('Email')}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void run(() => ok(typedApi.PATCH('/settings', { body: { email: email.trim() } })), t('Check your email ({{email}}) to confirm the new address.', { email: email.trim() }));
      }}
    >
      <h2>{t('Email')}</h2>
      <label htmlFor="settings-email">{t('Email address')}</label>
      <input id="settings-email" type="email" value={email} onChange={(event) => setEmail(event.target.value)} required maxLength={254} />
      <button type="submit" disabled={email.trim() === state.deliveryEmail}>
        {t('Change email')}
      </button>
      <Outcome outcome={outcome} />
    </form>
  );
}

/** Notifications: a checkbox per notification setting, shown as the server has them (the user_settings events confirm a change). */
export function NotificationsForm({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const [chosen, setChosen] = useState<Record<string, boolean>>({});
  const value = (name: string) => chosen[name] ?? state.settings[name] === true;
  // Zulip's notification settings the app offers, each a checkbox saved as it changes (PATCH /settings).
  const settings: [string, string][] = [
    ['enable_desktop_notifications', t('Desktop notifications for direct messages and mentions')],
    ['enable_sounds', t('Sounds for direct messages and mentions')],
    ['enable_offline_email_notifications', t('Emails for direct messages and mentions while away')],
    ['enable_offline_push_notifications', t('Mobile notifications while away')],
    ['enable_stream_desktop_notifications', t('Desktop notifications for channel messages')],
    ['enable_stream_audible_notifications', t('Sounds for channel messages')],
    ['enable_stream_email_notifications', t('Emails for channel messages')],
    ['enable_stream_push_notifications', t('Mobile notifications for channel messages')],
    ['wildcard_mentions_notify', t('Notify me of @all and @topic mentions')],
    ['enable_digest_emails', t('Digest emails while away')],
  ];
  return (
    <form aria-label={t('Notifications')} onSubmit={(event) => event.preventDefault()}>
      <h2>{t('Notifications')}</h2>
      {settings.map(([name, label]) => (
        <label key={name} className="choice">
          <input
            type="checkbox"
            checked={value(name)}
            onChange={(event) => {
              const next = event.target.checked;
              setChosen((all) => ({ ...all, [name]: next }));
              void run(() => ok(typedApi.PATCH('/settings', { body: { [name]: next } }))).then((done) => done || setChosen(({ [name]: _, ...rest }) => rest));
            }}
          />{' '}
          {label}
        </label>
      ))}
      <Outcome outcome={outcome} />
    </form>
  );
}

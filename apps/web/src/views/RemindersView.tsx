import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { Reminder } from '../api/types';
import type { ChatState } from '../events/chat-state';
import { MessageContent } from '../messages/MessageContent';

/** One reminder: when, the text the notification bot will send (with the note), and "Delete reminder". */
function ReminderItem({ reminder }: { reminder: Reminder }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const when = new Date(reminder.scheduled_delivery_timestamp * 1000);
  const name = t('Reminder at {{time}}', { time: when.toLocaleString() });
  return (
    <li className="card" aria-label={name}>
      <time dateTime={when.toISOString()}>
        <strong>{when.toLocaleString()}</strong>
      </time>
      {reminder.failed && <span className="error"> {t('(not sent: it failed)')}</span>}
      <MessageContent html={reminder.rendered_content} />
      <div className="buttons">
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setError(null);
            ok(typedApi.DELETE('/reminders/{reminder_id}', { params: { path: { reminder_id: reminder.reminder_id } } })).catch((failure: unknown) =>
              setError(failure instanceof ApiError ? failure.message : t('Something went wrong. Try again.')),
            );
          }}
        >
          {t('Delete reminder')}
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </li>
  );
}

/** "Reminders" (#reminders): what "Remind me about this" scheduled, soonest first, kept live by the `reminders` events. */
export function RemindersView({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const list = [...state.reminders].sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp);
  return (
    <main className="view page">
      <h1>{t('Reminders')}</h1>
      <section aria-label={t('Reminders')} className="list">
        {list.length === 0 && <p className="empty">{t('No reminders.')}</p>}
        <ul>
          {list.map((reminder) => (
            <ReminderItem key={reminder.reminder_id} reminder={reminder} />
          ))}
        </ul>
      </section>
    </main>
  );
}

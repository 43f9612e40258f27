import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { Message } from '../api/types';
import type { ChatState } from '../events/chat-state';
import { localInputValue } from '../compose/SendLater';

/** The notification bot's messages have no read receipts (Zulip's check, by its address). */
const fromNotificationBot = (message: Message) => message.sender_email.startsWith('notification-bot@');

/**
 * "Read receipts" (Zulip's read receipts modal): who has read the message, by name, with Zulip's
 * texts when nobody has, when the organization turned them off, and for the notification bot.
 */
export function ReadReceipts({ message, state, onClose }: { message: Message; state: ChatState; onClose: () => void }) {
  const { t } = useTranslation();
  const asked = state.readReceipts && !fromNotificationBot(message);
  const receipts = useQuery({
    queryKey: ['read_receipts', message.id],
    queryFn: async ({ signal }) => (await ok(typedApi.GET('/messages/{message_id}/read_receipts', { params: { path: { message_id: message.id } }, signal }))).user_ids,
    enabled: asked,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const people = (receipts.data ?? []).map((id) => state.users[id]?.full_name ?? t('Someone')).sort((a, b) => a.localeCompare(b));
  let body;
  if (fromNotificationBot(message)) body = <p>{t('Read receipts are not available for Notification Bot messages.')}</p>;
  else if (!state.readReceipts)
    body = (
      <p role="alert" className="error">
        {t('Read receipts are disabled for this organization.')}
      </p>
    );
  else if (receipts.isError)
    body = (
      <p role="alert" className="error">
        {t('Failed to load read receipts.')} {receipts.error instanceof ApiError ? receipts.error.message : ''}
      </p>
    );
  else if (receipts.isPending) body = <p className="muted">{t('Loading…')}</p>;
  else if (people.length === 0) body = <p>{t('No one has read this message yet.')}</p>;
  else
    body = (
      <>
        <p>{t('This message has been read by {{count}} people:', { count: people.length })}</p>
        <ul aria-label={t('Read by')}>
          {people.map((name, i) => (
            <li key={i}>{name}</li>
          ))}
        </ul>
      </>
    );
  return (
    <div className="panel-dialog" role="dialog" aria-label={t('Read receipts')} onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <h3>{t('Read receipts')}</h3>
      {body}
      <button type="button" className="secondary" onClick={onClose}>
        {t('Close')}
      </button>
    </div>
  );
}

/** Zulip's report types, with the words its report dialog shows. */
const REPORT_TYPES = ['spam', 'harassment', 'inappropriate', 'norms', 'other'] as const;

/** "Report a message" (Zulip's report modal): a report type and details, sent to the moderators. */
export function ReportMessage({ message, onClose, onReported }: { message: Message; onClose: () => void; onReported: () => void }) {
  const { t } = useTranslation();
  const [type, setType] = useState<(typeof REPORT_TYPES)[number]>('spam');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const names: Record<(typeof REPORT_TYPES)[number], string> = {
    spam: t('Spam'),
    harassment: t('Harassment'),
    inappropriate: t('Inappropriate content'),
    norms: t('Violates community norms'),
    other: t('Other reason'),
  };
  async function submit(event: FormEvent) {
    event.preventDefault();
    setSending(true);
    setError(null);
    try {
      await ok(typedApi.POST('/messages/{message_id}/report', { params: { path: { message_id: message.id } }, body: { report_type: type, description } }));
      onReported();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : t('Something went wrong. Try again.'));
    } finally {
      setSending(false);
    }
  }
  return (
    <form className="panel-dialog" role="dialog" aria-label={t('Report a message')} onSubmit={(event) => void submit(event)} onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <h3>{t('Report a message')}</h3>
      <label htmlFor={`report-type-${message.id}`}>{t("What's the problem with this message?")}</label>
      <select id={`report-type-${message.id}`} value={type} onChange={(event) => setType(event.target.value as typeof type)}>
        {REPORT_TYPES.map((value) => (
          <option key={value} value={value}>
            {names[value]}
          </option>
        ))}
      </select>
      <label htmlFor={`report-description-${message.id}`}>{t('Can you provide more details?')}</label>
      <textarea id={`report-description-${message.id}`} rows={3} maxLength={1000} value={description} onChange={(event) => setDescription(event.target.value)} />
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="buttons">
        <button type="submit" disabled={sending}>
          {t('Submit')}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}

/** When a reminder comes, as Zulip's "Remind me about this" offers it: soon, later today, tomorrow morning, or a time of one's own. */
const REMINDER_TIMES = ['20m', '1h', '3h', 'tomorrow', 'custom'] as const;
type ReminderTime = (typeof REMINDER_TIMES)[number];

function reminderAt(choice: ReminderTime, custom: string, now = new Date()): number {
  if (choice === 'custom') return Math.floor(new Date(custom).getTime() / 1000);
  if (choice === 'tomorrow') {
    const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 9, 0, 0);
    return Math.floor(tomorrow.getTime() / 1000);
  }
  const minutes = { '20m': 20, '1h': 60, '3h': 180 }[choice];
  return Math.floor(now.getTime() / 1000) + minutes * 60;
}

/**
 * "Remind me about this" (Zulip's reminder modal): when, and a note; POST /reminders. The
 * notification bot then sends the reminder to the caller alone.
 */
export function RemindMe({ message, state, onClose, onScheduled }: { message: Message; state: ChatState; onClose: () => void; onScheduled: (at: number) => void }) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<ReminderTime>('1h');
  const [custom, setCustom] = useState(() => localInputValue(new Date(Date.now() + 24 * 3600_000)));
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const names: Record<ReminderTime, string> = {
    '20m': t('In 20 minutes'),
    '1h': t('In 1 hour'),
    '3h': t('In 3 hours'),
    tomorrow: t('Tomorrow at 9:00 AM'),
    custom: t('Custom time'),
  };
  async function submit(event: FormEvent) {
    event.preventDefault();
    const at = reminderAt(choice, custom);
    if (!Number.isFinite(at)) return setError(t('Choose a time.'));
    setSending(true);
    setError(null);
    try {
      const body = { message_id: message.id, scheduled_delivery_timestamp: at, ...(note.trim() ? { note: note.trim() } : {}) };
      await ok(typedApi.POST('/reminders', { body }));
      onScheduled(at);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : t('Something went wrong. Try again.'));
    } finally {
      setSending(false);
    }
  }
  return (
    <form className="panel-dialog" role="dialog" aria-label={t('Remind me about this')} onSubmit={(event) => void submit(event)} onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <h3>{t('Remind me about this')}</h3>
      <label htmlFor={`reminder-time-${message.id}`}>{t('When')}</label>
      <select id={`reminder-time-${message.id}`} value={choice} onChange={(event) => setChoice(event.target.value as ReminderTime)}>
        {REMINDER_TIMES.map((value) => (
          <option key={value} value={value}>
            {names[value]}
          </option>
        ))}
      </select>
      {choice === 'custom' && (
        <>
          <label htmlFor={`reminder-custom-${message.id}`}>{t('Remind me at')}</label>
          <input id={`reminder-custom-${message.id}`} type="datetime-local" step={60} value={custom} onChange={(event) => setCustom(event.target.value)} />
        </>
      )}
      <label htmlFor={`reminder-note-${message.id}`}>{t('Note (optional)')}</label>
      <textarea id={`reminder-note-${message.id}`} rows={2} maxLength={state.maxReminderNoteLength} value={note} onChange={(event) => setNote(event.target.value)} />
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="buttons">
        <button type="submit" disabled={sending}>
          {t('Schedule reminder')}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { ScheduledMessage } from '../api/types';
import { localInputValue } from '../compose/SendLater';
import type { ChatState } from '../events/chat-state';
import { MessageContent } from '../messages/MessageContent';
import { draftNarrow } from './DraftsView';

function recipientOf(message: ScheduledMessage, state: ChatState): string {
  const to = Array.isArray(message.to) ? message.to : [message.to];
  return draftNarrow({ type: message.type, to, topic: message.topic ?? '' }, state).name;
}

/** One scheduled message: what, where and when, with "Edit" (text and time) and "Cancel". */
function ScheduledItem({ message, state }: { message: ScheduledMessage; state: ChatState }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ content: string; when: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const when = new Date(message.scheduled_delivery_timestamp * 1000);
  const recipient = recipientOf(message, state);
  const act = (work: () => Promise<unknown>) =>
    work().then(
      () => true,
      (failure: unknown) => {
        setError(failure instanceof ApiError ? failure.message : t('Something went wrong. Try again.'));
        return false;
      },
    );
  return (
    <li className="card" aria-label={t('Scheduled message to {{recipient}}', { recipient })}>
      <strong>{recipient}</strong>{' '}
      <time dateTime={when.toISOString()}>{t('at {{time}}', { time: when.toLocaleString() })}</time>
      {message.failed && <span className="error">{t('(not sent: it failed)')}</span>}
      {editing ? (
        <form
          className="edit"
          aria-label={t('Edit scheduled message')}
          onSubmit={(event) => {
            event.preventDefault();
            const at = Math.floor(new Date(editing.when).getTime() / 1000);
            void act(() => ok(typedApi.PATCH('/scheduled_messages/{scheduled_message_id}', { params: { path: { scheduled_message_id: message.scheduled_message_id } }, body: { content: editing.content, scheduled_delivery_timestamp: at } }))).then((done) => done && setEditing(null));
          }}
        >
          <textarea aria-label={t('Message')} value={editing.content} onChange={(event) => setEditing({ ...editing, content: event.target.value })} rows={3} />
          <label>
            {t('Send at')} <input type="datetime-local" step={1} value={editing.when} onChange={(event) => setEditing({ ...editing, when: event.target.value })} />
          </label>
          <div className="buttons">
            <button type="submit">{t('Save')}</button>
            <button type="button" className="secondary" onClick={() => setEditing(null)}>
              {t('Cancel')}
            </button>
          </div>
        </form>
      ) : (
        <>
          <MessageContent html={message.rendered_content} />
          <div className="buttons">
            <button type="button" onClick={() => setEditing({ content: message.content, when: localInputValue(when) })}>
              {t('Edit')}
            </button>
            <button type="button" className="secondary" onClick={() => void act(() => ok(typedApi.DELETE('/scheduled_messages/{scheduled_message_id}', { params: { path: { scheduled_message_id: message.scheduled_message_id } } })))}>
              {t('Cancel scheduled message')}
            </button>
          </div>
        </>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </li>
  );
}

/** "Scheduled messages": what "Send later" queued (kept live by the scheduled_messages events), soonest first. */
export function ScheduledView({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const list = [...state.scheduled].sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp);
  return (
    <main className="view page">
      <h1>{t('Scheduled messages')}</h1>
      <section aria-label={t('Scheduled messages')} className="list">
        {list.length === 0 && <p className="empty">{t('No scheduled messages.')}</p>}
        <ul>
          {list.map((message) => (
            <ScheduledItem key={message.scheduled_message_id} message={message} state={state} />
          ))}
        </ul>
      </section>
    </main>
  );
}

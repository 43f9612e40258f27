import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import { mayMove, type ChatState } from '../events/chat-state';
import { narrowHash } from '../narrow/narrow';

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

/**
 * The dialog "Move messages": a new channel (when I may move between channels) and topic for a
 * message, the messages after it or its whole topic, through PATCH /messages/{id} with
 * `propagate_mode` and Zulip's two notification choices. The update_message event moves them on
 * every screen; a whole topic moved takes the reader along (as Zulip does).
 */
export function MoveMessages({
  state,
  messageId,
  channelId,
  topic,
  mode: initialMode,
  onClose,
}: {
  state: ChatState;
  messageId: number;
  channelId: number;
  topic: string;
  mode: PropagateMode;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [newChannel, setNewChannel] = useState(channelId);
  const [newTopic, setNewTopic] = useState(topic);
  const [mode, setMode] = useState<PropagateMode>(initialMode);
  const [notifyOld, setNotifyOld] = useState(false);
  const [notifyNew, setNotifyNew] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const betweenChannels = mayMove(state, 'channel');
  const unchanged = newChannel === channelId && newTopic.trim() === topic;

  async function move(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await ok(
        typedApi.PATCH('/messages/{message_id}', {
          params: { path: { message_id: messageId } },
          body: {
            ...(newChannel !== channelId ? { stream_id: newChannel } : {}),
            ...(newTopic.trim() !== topic ? { topic: newTopic.trim() } : {}),
            propagate_mode: mode,
            send_notification_to_old_thread: notifyOld,
            send_notification_to_new_thread: notifyNew,
          },
        }),
      );
      onClose();
      if (mode === 'change_all') {
        const channelName = state.subscriptions.find((sub) => sub.stream_id === newChannel)?.name ?? '';
        window.location.hash = narrowHash({ kind: 'channel', channelId: newChannel, channelName, topic: newTopic.trim() });
      }
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : t('Something went wrong. Try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="move" role="dialog" aria-label={t('Move messages')} onSubmit={(event) => void move(event)} onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      {betweenChannels && (
        <label>
          <span id={`${id}-channel`}>{t('New channel')}</span>
          <select aria-labelledby={`${id}-channel`} value={newChannel} onChange={(event) => setNewChannel(Number(event.target.value))}>
            {state.subscriptions.map((sub) => (
              <option key={sub.stream_id} value={sub.stream_id}>
                {sub.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        <span id={`${id}-topic`}>{t('New topic')}</span>
        <input aria-labelledby={`${id}-topic`} value={newTopic} onChange={(event) => setNewTopic(event.target.value)} maxLength={60} autoFocus />
      </label>
      <label>
        <span id={`${id}-mode`}>{t('Which messages')}</span>
        <select aria-labelledby={`${id}-mode`} value={mode} onChange={(event) => setMode(event.target.value as PropagateMode)}>
          <option value="change_one">{t('Only this message')}</option>
          <option value="change_later">{t('This message and the ones after it')}</option>
          <option value="change_all">{t('All messages in the topic')}</option>
        </select>
      </label>
      <label>
        <input type="checkbox" checked={notifyOld} onChange={(event) => setNotifyOld(event.target.checked)} />
        {t('Send a notice to the old topic')}
      </label>
      <label>
        <input type="checkbox" checked={notifyNew} onChange={(event) => setNotifyNew(event.target.checked)} />
        {t('Send a notice to the new topic')}
      </label>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="buttons">
        <button type="submit" disabled={busy || unchanged || newTopic.trim() === ''}>
          {t('Move')}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}

import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../api/client';
import type { ChatState } from '../events/chat-state';
import type { Narrow } from '../narrow/narrow';

type Target = { type: 'stream'; channelId: number; topic: string } | { type: 'direct'; userIds: number[] };

/** How long without a keystroke before the "stopped typing" notice (Zulip's web app: 5 s). */
const TYPING_IDLE_MS = 5000;

/**
 * The compose box: textbox "Message" and button "Send", with textbox "Topic" for a channel and a
 * combobox "Channel" when the narrow does not fix one. Enter sends, Shift+Enter starts a new
 * line. Typing notices go out as Zulip's web app sends them.
 */
export function Compose({ state, narrow }: { state: ChatState; narrow: Narrow }) {
  const { t } = useTranslation();
  const fixedChannel = narrow.kind === 'channel' ? narrow.channelId : null;
  const [channelId, setChannelId] = useState<number | null>(fixedChannel ?? state.subscriptions[0]?.stream_id ?? null);
  const [topic, setTopic] = useState(narrow.kind === 'channel' ? (narrow.topic ?? '') : '');
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const typing = useRef<{ target: string; lastStart: number; idle?: ReturnType<typeof setTimeout> } | null>(null);

  // A new narrow sets what it fixes.
  const narrowText = JSON.stringify(narrow);
  useEffect(() => {
    if (narrow.kind === 'channel') {
      setChannelId(narrow.channelId);
      setTopic(narrow.topic ?? '');
    }
    setError(null);
  }, [narrowText]);

  const target: Target | null =
    narrow.kind === 'dm'
      ? { type: 'direct', userIds: narrow.userIds }
      : channelId !== null
        ? { type: 'stream', channelId, topic }
        : null;

  function typingParams(to: Target) {
    return to.type === 'stream' ? { type: 'stream', stream_id: to.channelId, topic: to.topic } : { type: 'direct', to: to.userIds };
  }

  function stopTyping() {
    const current = typing.current;
    if (!current) return;
    clearTimeout(current.idle);
    typing.current = null;
    void api.post('/typing', { op: 'stop', ...JSON.parse(current.target) }).catch(() => undefined);
  }

  function noteTyping() {
    if (!target || (target.type === 'stream' && target.topic.trim() === '')) return;
    const key = JSON.stringify(typingParams(target));
    if (typing.current && typing.current.target !== key) stopTyping();
    const now = Date.now();
    if (!typing.current || now - typing.current.lastStart > state.typingStartedWaitMs) {
      typing.current = { target: key, lastStart: now, idle: typing.current?.idle };
      void api.post('/typing', { op: 'start', ...typingParams(target) }).catch(() => undefined);
    }
    clearTimeout(typing.current.idle);
    typing.current.idle = setTimeout(stopTyping, TYPING_IDLE_MS);
  }

  useEffect(() => stopTyping, []);

  async function send(event?: FormEvent) {
    event?.preventDefault();
    if (!target || content.trim() === '' || sending) return;
    setSending(true);
    setError(null);
    try {
      const message =
        target.type === 'stream'
          ? { type: 'stream', to: target.channelId, topic: target.topic, content }
          : { type: 'direct', to: target.userIds, content };
      await api.post('/messages', message);
      setContent('');
      stopTyping();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : t('The message could not be sent. Try again.'));
    } finally {
      setSending(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }

  return (
    <form className="compose" aria-label={t('Compose')} onSubmit={(event) => void send(event)}>
      {narrow.kind !== 'dm' && (
        <div className="recipient">
          {fixedChannel === null && (
            <select aria-label={t('Channel')} value={channelId ?? ''} onChange={(e) => setChannelId(Number(e.target.value))}>
              {state.subscriptions.map((sub) => (
                <option key={sub.stream_id} value={sub.stream_id}>
                  {sub.name}
                </option>
              ))}
            </select>
          )}
          <input aria-label={t('Topic')} placeholder={t('Topic')} value={topic} onChange={(e) => setTopic(e.target.value)} maxLength={60} />
        </div>
      )}
      <textarea
        aria-label={t('Message')}
        placeholder={narrow.kind === 'dm' ? t('Message {{people}}', { people: narrow.label }) : t('Message')}
        value={content}
        onChange={(e) => {
          setContent(e.target.value);
          noteTyping();
        }}
        onKeyDown={onKeyDown}
        onBlur={stopTyping}
        rows={3}
      />
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <button type="submit" disabled={sending || !target || content.trim() === ''}>
        {t('Send')}
      </button>
    </form>
  );
}

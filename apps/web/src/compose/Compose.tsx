import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { ChatState } from '../events/chat-state';
import { MessageContent } from '../messages/MessageContent';
import type { Narrow } from '../narrow/narrow';
import { takeComposeRequest, useComposeRequest, type ComposeRequest } from './compose-requests';
import { useDraftSaver } from './drafts';
import { useAutocomplete } from './Autocomplete';
import { SendLater } from './SendLater';
import { useUploads } from './uploads';

export type Target = { type: 'stream'; channelId: number; topic: string } | { type: 'direct'; userIds: number[] };

/** How long without a keystroke before the "stopped typing" notice (Zulip's web app: 5 s). */
const TYPING_IDLE_MS = 5000;

/** A message as POST /messages and POST /scheduled_messages take it. */
export function messageParams(target: Target, content: string) {
  // `to` is a channel's id or a JSON list of people's (Zulip's form encoding).
  return target.type === 'stream'
    ? { type: 'stream' as const, to: String(target.channelId), topic: target.topic, content }
    : { type: 'direct' as const, to: JSON.stringify(target.userIds), content };
}

/**
 * The compose box: textbox "Message" and button "Send", with textbox "Topic" for a channel and a
 * combobox "Channel" when the narrow does not fix one. Enter sends, Shift+Enter starts a new
 * line. Typing notices go out as Zulip's web app sends them; the text is kept as a draft on the
 * server while it is typed; files dropped, pasted or picked are uploaded (tus) and linked; "Send
 * later" schedules it.
 */
export function Compose({ state, narrow }: { state: ChatState; narrow: Narrow }) {
  const { t } = useTranslation();
  const fixedChannel = narrow.kind === 'channel' ? narrow.channelId : null;
  const [channelId, setChannelId] = useState<number | null>(fixedChannel ?? state.subscriptions[0]?.stream_id ?? null);
  const [topic, setTopic] = useState(narrow.kind === 'channel' ? (narrow.topic ?? '') : '');
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [later, setLater] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  const [snippets, setSnippets] = useState(false);
  const typing = useRef<{ target: string; lastStart: number; idle?: ReturnType<typeof setTimeout> } | null>(null);
  const textbox = useRef<HTMLTextAreaElement>(null);
  const topicBox = useRef<HTMLInputElement>(null);
  const picker = useRef<HTMLInputElement>(null);

  const target: Target | null =
    narrow.kind === 'dm'
      ? { type: 'direct', userIds: narrow.userIds }
      : channelId !== null
        ? { type: 'stream', channelId, topic }
        : null;

  const drafts = useDraftSaver();
  const autocomplete = useAutocomplete(
    state,
    content,
    (text) => {
      setContent(text);
      setPreview(null);
      if (target) drafts.changed(target, text);
    },
    textbox,
  );
  const uploads = useUploads((link) => {
    setContent((text) => `${text}${text === '' || text.endsWith('\n') || text.endsWith(' ') ? '' : ' '}${link}`);
  });

  // A new narrow sets what it fixes; the text typed for the last one stays a draft.
  const narrowText = JSON.stringify(narrow);
  const first = useRef(true);
  useEffect(() => {
    if (narrow.kind === 'channel') {
      setChannelId(narrow.channelId);
      setTopic(narrow.topic ?? '');
    }
    setError(null);
    if (first.current) first.current = false;
    else {
      drafts.flush();
      setContent('');
      setLater(false);
    }
  }, [narrowText]);

  // Replies (r), a new topic (c), a restored draft: what the rest of the app asks.
  const request = useComposeRequest();
  useEffect(() => {
    const asked = takeComposeRequest();
    if (asked) apply(asked);
  }, [request?.serial]);

  function apply(asked: ComposeRequest) {
    if (asked.channelId !== undefined && fixedChannel === null) setChannelId(asked.channelId);
    if (asked.topic !== undefined && (narrow.kind !== 'channel' || narrow.topic === undefined)) setTopic(asked.topic);
    if (asked.content !== undefined) setContent(asked.content);
    drafts.adopt(asked.draftId);
    setTimeout(() => (asked.focus === 'topic' && topicBox.current ? topicBox.current : textbox.current)?.focus(), 0);
  }

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

  /** Sends (or, given a time, schedules) what is in the box; true when the server took it. */
  async function submit(scheduledAt?: number): Promise<boolean> {
    if (!target || content.trim() === '' || sending) return false;
    setSending(true);
    setError(null);
    try {
      if (scheduledAt === undefined) await ok(typedApi.POST('/messages', { body: messageParams(target, content) }));
      else await ok(typedApi.POST('/scheduled_messages', { body: { ...messageParams(target, content), scheduled_delivery_timestamp: scheduledAt } }));
      setContent('');
      setPreview(null);
      drafts.discard();
      stopTyping();
      return true;
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : t('The message could not be sent. Try again.'));
      return false;
    } finally {
      setSending(false);
    }
  }

  /** Puts a saved snippet's text where the cursor is (replacing a selection), as Zulip's compose box does. */
  function insertSnippet(text: string) {
    setSnippets(false);
    const box = textbox.current;
    const start = box?.selectionStart ?? content.length;
    const end = box?.selectionEnd ?? content.length;
    const next = content.slice(0, start) + text + content.slice(end);
    setContent(next);
    setPreview(null);
    if (target) drafts.changed(target, next);
    requestAnimationFrame(() => {
      box?.focus();
      box?.setSelectionRange(start + text.length, start + text.length);
    });
  }

  function send(event?: FormEvent) {
    event?.preventDefault();
    void submit();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (autocomplete.onKeyDown(event)) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    } else if (event.key === 'Escape') {
      event.currentTarget.blur();
    }
  }

  function onDrop(event: DragEvent) {
    if (event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    uploads.start(event.dataTransfer.files);
  }

  function onPaste(event: ClipboardEvent) {
    if (event.clipboardData.files.length === 0) return;
    event.preventDefault();
    uploads.start(event.clipboardData.files);
  }

  return (
    <form className="compose" aria-label={t('Compose')} onSubmit={send} onDragOver={(event) => event.preventDefault()} onDrop={onDrop}>
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
          <input ref={topicBox} aria-label={t('Topic')} placeholder={t('Topic')} value={topic} onChange={(e) => setTopic(e.target.value)} maxLength={60} />
        </div>
      )}
      <textarea
        ref={textbox}
        aria-label={t('Message')}
        {...autocomplete.textboxProps}
        placeholder={narrow.kind === 'dm' ? t('Message {{people}}', { people: narrow.label }) : t('Message')}
        value={content}
        onChange={(e) => {
          setContent(e.target.value);
          setPreview(null);
          noteTyping();
          if (target) drafts.changed(target, e.target.value);
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onBlur={stopTyping}
        rows={3}
      />
      {autocomplete.list}
      {preview !== null && (
        <section className="preview" aria-label={t('Preview')}>
          <MessageContent html={preview} />
        </section>
      )}
      {uploads.list.length > 0 && (
        <ul className="uploads" aria-label={t('Uploads')}>
          {uploads.list.map((upload) => (
            <li key={upload.id}>
              <span>{upload.name}</span>
              {upload.error ? (
                <span role="alert" className="error">
                  {upload.error}
                </span>
              ) : (
                <progress aria-label={t('Uploading {{name}}', { name: upload.name })} max={upload.total || 1} value={upload.sent} />
              )}
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {later && <SendLater onSchedule={(at) => submit(at).then((done) => done && setLater(false))} onCancel={() => setLater(false)} />}
      <div className="buttons">
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          aria-label={t('Files to upload')}
          onChange={(event) => {
            if (event.target.files) uploads.start(event.target.files);
            event.target.value = '';
          }}
        />
        <button type="button" className="secondary" onClick={() => picker.current?.click()}>
          {t('Attach files')}
        </button>
        <span className="menu-anchor">
          <button type="button" className="secondary" aria-haspopup="menu" aria-expanded={snippets} onClick={() => setSnippets(!snippets)}>
            {t('Insert saved snippet')}
          </button>
          {snippets && (
            <div className="menu up" role="menu" aria-label={t('Saved snippets')} onKeyDown={(event) => event.key === 'Escape' && setSnippets(false)}>
              {state.savedSnippets.map((snippet) => (
                <button key={snippet.id} type="button" role="menuitem" onClick={() => insertSnippet(snippet.content)}>
                  {snippet.title}
                </button>
              ))}
              <a role="menuitem" href="#settings/saved-snippets" onClick={() => setSnippets(false)}>
                {t('Add a new saved snippet')}
              </a>
            </div>
          )}
        </span>
        <button
          type="button"
          className="secondary"
          aria-pressed={preview !== null}
          disabled={preview === null && content.trim() === ''}
          onClick={() => {
            if (preview !== null) return setPreview(null);
            ok(typedApi.POST('/messages/render', { body: { content } })).then(
              (answer) => setPreview(answer.rendered),
              (failure: unknown) => setError(failure instanceof ApiError ? failure.message : t('Something went wrong. Try again.')),
            );
          }}
        >
          {t('Preview')}
        </button>
        <button type="button" className="secondary" aria-expanded={later} disabled={!target || content.trim() === ''} onClick={() => setLater(!later)}>
          {t('Send later')}
        </button>
        <button type="submit" disabled={sending || !target || content.trim() === ''}>
          {t('Send')}
        </button>
      </div>
    </form>
  );
}

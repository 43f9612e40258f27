import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { Message, Reaction } from '../api/types';
import { mayMove, type ChatState } from '../events/chat-state';
import { t as translate } from '../i18n/i18n';
import { requestCompose } from '../compose/compose-requests';
import { narrowHash, otherPeople, type Narrow } from '../narrow/narrow';
import { PICKER_EMOJI, emojiGlyph } from './emoji';
import { EmojiGlyph, activeCustomEmoji } from './EmojiGlyph';
import { EmojiSearch } from './EmojiSearch';
import { ReadReceipts, RemindMe, ReportMessage } from './MessageDialogs';
import { MessageWidget } from './MessageWidget';
import { widgetState } from './widget-data';
import { UserCard } from '../people/UserCard';
import { MessageContent } from './MessageContent';
import { MoveMessages } from './MoveMessages';

const timeOf = (seconds: number) => new Date(seconds * 1000);

/** One snapshot of GET /messages/{id}/history (the original first). */
interface HistoryEntry {
  rendered_content: string;
  user_id: number | null;
  timestamp: number;
}

const failed = (error: unknown) => (error instanceof ApiError ? error.message : translate('Something went wrong. Try again.'));

/** A message's reactions, one button per emoji: pressed when I reacted, a press toggles mine. */
function Reactions({ message, state, toggle }: { message: Message; state: ChatState; toggle: (emoji: Pick<Reaction, 'emoji_name' | 'emoji_code' | 'reaction_type'>) => void }) {
  const { t } = useTranslation();
  const groups = new Map<string, Reaction[]>();
  for (const reaction of message.reactions ?? []) {
    const key = `${reaction.reaction_type}:${reaction.emoji_code}`;
    groups.set(key, [...(groups.get(key) ?? []), reaction]);
  }
  if (groups.size === 0) return null;
  return (
    <div className="reactions" role="group" aria-label={t('Reactions')}>
      {[...groups.values()].map((reactions) => {
        const first = reactions[0];
        const mine = reactions.some((r) => r.user_id === state.me.user_id);
        const people = reactions.map((r) => (r.user_id === state.me.user_id ? t('You') : (state.users[r.user_id]?.full_name ?? t('Someone')))).join(', ');
        return (
          <button
            key={`${first.reaction_type}:${first.emoji_code}`}
            type="button"
            className="reaction"
            aria-pressed={mine}
            aria-label={t('{{emoji}}: {{count}}', { emoji: first.emoji_name, count: reactions.length })}
            title={t('{{people}} reacted with :{{emoji}}:', { people, emoji: first.emoji_name })}
            onClick={() => toggle(first)}
          >
            <span aria-hidden="true">
              <EmojiGlyph code={first.emoji_code} type={first.reaction_type} name={first.emoji_name} realmEmoji={state.realmEmoji} />
            </span>{' '}
            {reactions.length}
          </button>
        );
      })}
    </div>
  );
}

/**
 * One message (an article named by its sender): its content, reactions, and the actions its
 * reader may take (react, star, and on their own message, as the organization allows, edit and
 * delete; administrators delete any). The server decides; a refusal is shown.
 */
export function MessageItem({ message, narrow, state, selected }: { message: Message; narrow: Narrow; state: ChatState; selected?: boolean }) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [moving, setMoving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [history, setHistory] = useState<HistoryEntry[] | null>(null);
  const [card, setCard] = useState(false);
  const [menu, setMenu] = useState(false);
  const [dialog, setDialog] = useState<'receipts' | 'report' | 'remind' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [revealed, setRevealed] = useState(false);
  const hidden = state.mutedUsers[message.sender_id] !== undefined && !revealed;
  const sender = state.users[message.sender_id];
  const when = timeOf(message.timestamp);
  const mine = message.sender_id === state.me.user_id;
  const starred = (message.flags ?? []).includes('starred');
  const widget = widgetState(message, state.me.user_id);
  const where =
    message.type === 'stream'
      ? { text: `#${typeof message.display_recipient === 'string' ? message.display_recipient : ''} › ${message.subject}`, hash: narrowHash({ kind: 'channel', channelId: message.stream_id ?? 0, channelName: String(message.display_recipient), topic: message.subject }) }
      : { text: t('Direct message'), hash: narrowHash({ kind: 'dm', userIds: otherPeople(message, state.me.user_id), label: '' }) };
  const showWhere = narrow.kind === 'all' || narrow.kind === 'search' || (narrow.kind === 'channel' && narrow.topic === undefined);

  async function act(action: () => Promise<unknown>) {
    setError(null);
    try {
      await action();
      return true;
    } catch (failure) {
      setError(failed(failure));
      return false;
    }
  }

  function toggle(emoji: Pick<Reaction, 'emoji_name' | 'emoji_code' | 'reaction_type'>) {
    const reacted = (message.reactions ?? []).some((r) => r.user_id === state.me.user_id && r.emoji_code === emoji.emoji_code && r.reaction_type === emoji.reaction_type);
    const params = { emoji_name: emoji.emoji_name, emoji_code: emoji.emoji_code, reaction_type: emoji.reaction_type };
    void act(() => (reacted ? api.delete(`/messages/${message.id}/reactions`, params) : api.post(`/messages/${message.id}/reactions`, params)));
  }

  async function startEditing() {
    await act(async () => {
      const answer = await ok(typedApi.GET('/messages/{message_id}', { params: { path: { message_id: message.id }, query: { apply_markdown: 'false' } } }));
      setEditing(answer.message.content);
    });
  }

  /** Zulip's quote and reply: a mention of the sender, a link to the message, and its text in a quote block. */
  async function quote() {
    await act(async () => {
      const answer = await ok(typedApi.GET('/messages/{message_id}', { params: { path: { message_id: message.id }, query: { apply_markdown: 'false' } } }));
      const link = `${where.hash}/near/${message.id}`;
      const fence = answer.message.content.includes('```') ? '````' : '```';
      const content = `@_**${message.sender_full_name}|${message.sender_id}** [${translate('said')}](${link}):\n${fence}quote\n${answer.message.content}\n${fence}\n`;
      if (message.type === 'stream') requestCompose({ channelId: message.stream_id, topic: message.subject, content, focus: 'message' });
      else {
        if (narrow.kind !== 'dm') window.location.hash = where.hash;
        requestCompose({ content, focus: 'message' });
      }
    });
  }

  async function showHistory() {
    await act(async () => setHistory((await ok(typedApi.GET('/messages/{message_id}/history', { params: { path: { message_id: message.id } } }))).message_history));
  }

  async function save() {
    if (editing === null) return;
    if (await act(() => ok(typedApi.PATCH('/messages/{message_id}', { params: { path: { message_id: message.id } }, body: { content: editing } })))) setEditing(null);
  }

  function editKeys(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      setEditing(null);
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void save();
    }
  }

  return (
    <article className={selected ? 'message selected' : 'message'} aria-labelledby={`m${message.id}-sender`} data-id={message.id} aria-current={selected ? 'true' : undefined}>
      <header>
        <strong id={`m${message.id}-sender`}>
          {hidden ? (
            t('Muted user')
          ) : (
            <button type="button" className="sender" aria-haspopup="dialog" aria-expanded={card} disabled={!sender} onClick={() => setCard(!card)}>
              {/* The name they have now (renamed, or "Unknown user" once hidden from us), as Zulip shows it. */}
              {sender?.full_name ?? message.sender_full_name}
            </button>
          )}
        </strong>
        <time dateTime={when.toISOString()} title={when.toLocaleString()}>
          {when.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
        </time>
        {showWhere && (
          <a className="where" href={where.hash}>
            {narrow.kind === 'channel' ? message.subject : where.text}
          </a>
        )}
        {starred && (
          <span className="star" role="img" aria-label={t('Starred')}>
            ★
          </span>
        )}
        <div className="actions" role="toolbar" aria-label={t('Message actions')}>
          <button type="button" aria-expanded={picking} onClick={() => setPicking(!picking)}>
            {t('Add reaction')}
          </button>
          <button type="button" aria-pressed={starred} onClick={() => void act(() => ok(typedApi.POST('/messages/flags', { body: { messages: [message.id], op: starred ? 'remove' : 'add', flag: 'starred' } })))}>
            {t('Star')}
          </button>
          <button type="button" onClick={() => void quote()}>
            {t('Quote and reply')}
          </button>
          {mine && state.allowEditing && editing === null && (
            <button type="button" onClick={() => void startEditing()}>
              {t('Edit')}
            </button>
          )}
          {message.type === 'stream' && (mine || mayMove(state, 'topic')) && (
            <button type="button" aria-expanded={moving} onClick={() => setMoving(!moving)}>
              {t('Move message')}
            </button>
          )}
          {(mine || state.me.isAdmin) && (
            <button type="button" onClick={() => setDeleting(true)}>
              {t('Delete')}
            </button>
          )}
          <button type="button" aria-haspopup="menu" aria-expanded={menu} onClick={() => setMenu(!menu)}>
            {t('More actions')}
          </button>
        </div>
      </header>
      {menu && (
        <div className="menu" role="menu" aria-label={t('More actions')} onKeyDown={(event) => event.key === 'Escape' && setMenu(false)}>
          <button type="button" role="menuitem" onClick={() => {
              setMenu(false);
              setDialog('receipts');
            }}>
            {t('View read receipts')}
          </button>
          <button type="button" role="menuitem" onClick={() => {
              setMenu(false);
              setNotice(null);
              setDialog('remind');
            }}>
            {t('Remind me about this')}
          </button>
          {!mine && (
            <button type="button" role="menuitem" onClick={() => {
                setMenu(false);
                setNotice(null);
                setDialog('report');
              }}>
              {t('Report message')}
            </button>
          )}
        </div>
      )}
      {card && sender && <UserCard user={sender} state={state} onClose={() => setCard(false)} />}
      {dialog === 'receipts' && <ReadReceipts message={message} state={state} onClose={() => setDialog(null)} />}
      {dialog === 'report' && (
        <ReportMessage
          message={message}
          onClose={() => setDialog(null)}
          onReported={() => {
            setDialog(null);
            setNotice(t('Your report has been sent to the moderators.'));
          }}
        />
      )}
      {dialog === 'remind' && (
        <RemindMe
          message={message}
          state={state}
          onClose={() => setDialog(null)}
          onScheduled={(at) => {
            setDialog(null);
            setNotice(t('Reminder scheduled for {{time}}.', { time: new Date(at * 1000).toLocaleString() }));
          }}
        />
      )}
      {notice && <p role="status">{notice}</p>}
      {picking && (
        <div className="picker" role="dialog" aria-label={t('Emoji picker')} onKeyDown={(event) => event.key === 'Escape' && setPicking(false)}>
          {PICKER_EMOJI.map((emoji) => (
            <button
              key={emoji.name}
              type="button"
              aria-label={emoji.name}
              title={`:${emoji.name}:`}
              onClick={() => {
                setPicking(false);
                toggle({ emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: 'unicode_emoji' });
              }}
            >
              {emojiGlyph(emoji.code, 'unicode_emoji', emoji.name)}
            </button>
          ))}
          {activeCustomEmoji(state.realmEmoji).length > 0 && (
            <div role="group" aria-label={t('Custom emoji')} className="custom-emoji">
              {activeCustomEmoji(state.realmEmoji).map((emoji) => (
                <button
                  key={emoji.id}
                  type="button"
                  aria-label={emoji.name}
                  title={`:${emoji.name}:`}
                  onClick={() => {
                    setPicking(false);
                    toggle({ emoji_name: emoji.name, emoji_code: emoji.id, reaction_type: 'realm_emoji' });
                  }}
                >
                  <EmojiGlyph code={emoji.id} type="realm_emoji" name={emoji.name} realmEmoji={state.realmEmoji} />
                </button>
              ))}
            </div>
          )}
          <EmojiSearch
            custom={activeCustomEmoji(state.realmEmoji)}
            onPick={(emoji) => {
              setPicking(false);
              toggle({ emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type ?? 'unicode_emoji' });
            }}
          />
        </div>
      )}
      {hidden ? (
        <div className="content hidden-message">
          <p>
            <em>{t('This message was hidden because you have muted the sender.')}</em>{' '}
            <button type="button" className="secondary small" onClick={() => setRevealed(true)}>
              {t('Show')}
            </button>
          </p>
        </div>
      ) : editing === null ? (
        <>
          {widget ? <MessageWidget widget={widget} message={message} state={state} /> : <MessageContent html={message.content} />}
          {message.last_edit_timestamp !== undefined && (
            <button type="button" className="edited" aria-label={t('Edit history')} aria-expanded={history !== null} onClick={() => (history ? setHistory(null) : void showHistory())}>
              {t('(edited)')}
            </button>
          )}
          {history && (
            <div className="history" role="dialog" aria-label={t('Edit history')}>
              <ol>
                {history.map((entry, i) => (
                  <li key={i}>
                    <span className="muted">
                      {i === 0 ? t('Original') : t('Edited by {{person}}', { person: entry.user_id === null ? t('Someone') : (state.users[entry.user_id]?.full_name ?? t('Someone')) })}{' '}
                      {timeOf(entry.timestamp).toLocaleString()}
                    </span>
                    <MessageContent html={entry.rendered_content} />
                  </li>
                ))}
              </ol>
              <button type="button" className="secondary" onClick={() => setHistory(null)}>
                {t('Close')}
              </button>
            </div>
          )}
        </>
      ) : (
        <form
          className="edit"
          aria-label={t('Edit message')}
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <textarea aria-label={t('Edit message')} value={editing} onChange={(event) => setEditing(event.target.value)} onKeyDown={editKeys} rows={3} autoFocus />
          <div className="buttons">
            <button type="submit">{t('Save')}</button>
            <button type="button" className="secondary" onClick={() => setEditing(null)}>
              {t('Cancel')}
            </button>
          </div>
        </form>
      )}
      {moving && message.type === 'stream' && (
        <MoveMessages state={state} messageId={message.id} channelId={message.stream_id ?? 0} topic={message.subject} mode="change_one" onClose={() => setMoving(false)} />
      )}
      {!hidden && <Reactions message={message} state={state} toggle={toggle} />}
      {deleting && (
        <div className="confirm" role="group" aria-label={t('Delete this message?')}>
          <span>{t('Delete this message?')}</span>
          <button type="button" className="danger" onClick={() => void act(() => ok(typedApi.DELETE('/messages/{message_id}', { params: { path: { message_id: message.id } } }))).then(() => setDeleting(false))}>
            {t('Confirm delete')}
          </button>
          <button type="button" className="secondary" onClick={() => setDeleting(false)}>
            {t('Cancel')}
          </button>
        </div>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </article>
  );
}

import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { Message } from '../api/types';
import type { ChatState } from '../events/chat-state';
import { pollEvents, todoEvents, type PollState, type TodoState, type WidgetState } from './widget-data';

type Send = (data: object) => Promise<boolean>;

/** A title the message's author edits in place ("Edit question", "Edit title"), as Zulip's widgets offer it. */
function EditableTitle({ text, editLabel, inputLabel, mayEdit, onSave }: { text: string; editLabel: string; inputLabel: string; mayEdit: boolean; onSave: (next: string) => Promise<boolean> }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<string | null>(null);
  if (editing !== null)
    return (
      <form
        className="widget-line"
        aria-label={editLabel}
        onSubmit={(event) => {
          event.preventDefault();
          const next = editing.trim();
          if (next === '' || next === text) return setEditing(null);
          void onSave(next).then((done) => done && setEditing(null));
        }}
      >
        <input aria-label={inputLabel} value={editing} onChange={(event) => setEditing(event.target.value)} onKeyDown={(event) => event.key === 'Escape' && setEditing(null)} autoFocus />
        <button type="submit" className="small" disabled={editing.trim() === ''}>
          {t('Save')}
        </button>
        <button type="button" className="secondary small" onClick={() => setEditing(null)}>
          {t('Cancel')}
        </button>
      </form>
    );
  return (
    <div className="widget-line">
      <h4>{text}</h4>
      {mayEdit && (
        <button type="button" className="secondary small" onClick={() => setEditing(text)}>
          {editLabel}
        </button>
      )}
    </div>
  );
}

/** Zulip's poll: the question, each option with its votes (who voted) and a vote button, and "Add option". */
function Poll({ poll, message, state, send }: { poll: PollState; message: Message; state: ChatState; send: Send }) {
  const { t } = useTranslation();
  const [option, setOption] = useState('');
  const me = state.me.user_id;
  const name = (id: number) => (id === me ? t('You') : (state.users[id]?.full_name ?? t('Someone')));
  const duplicate = poll.options.some((o) => o.option === option.trim());
  function add(event: FormEvent) {
    event.preventDefault();
    const text = option.trim();
    if (text === '' || duplicate) return;
    void send(pollEvents.newOption(poll, text)).then((done) => done && setOption(''));
  }
  return (
    <div className="widget" role="group" aria-label={t('Poll')}>
      <EditableTitle
        text={poll.question || t('No question yet')}
        editLabel={t('Edit question')}
        inputLabel={t('Question')}
        mayEdit={message.sender_id === me}
        onSave={(question) => send(pollEvents.question(question))}
      />
      <ul aria-label={t('Options')}>
        {poll.options.map((o) => {
          const voted = o.voters.includes(me);
          return (
            <li key={o.key}>
              <button type="button" className="vote" aria-pressed={voted} aria-label={voted ? t('Remove your vote for {{option}}', { option: o.option }) : t('Vote for {{option}}', { option: o.option })} onClick={() => void send(pollEvents.vote(o, me))}>
                {o.voters.length}
              </button>
              <span className="option">{o.option}</span>
              {o.voters.length > 0 && <span className="muted">({o.voters.map(name).join(', ')})</span>}
            </li>
          );
        })}
      </ul>
      <form className="widget-line" aria-label={t('Add an option')} onSubmit={add}>
        <input aria-label={t('New option')} placeholder={t('New option')} value={option} maxLength={200} onChange={(event) => setOption(event.target.value)} />
        <button type="submit" className="small" disabled={option.trim() === '' || duplicate}>
          {t('Add option')}
        </button>
      </form>
    </div>
  );
}

/** Zulip's to-do list: the title, each task with a check box (anyone strikes it), and "Add task". */
function Todo({ todo, message, state, send }: { todo: TodoState; message: Message; state: ChatState; send: Send }) {
  const { t } = useTranslation();
  const [task, setTask] = useState('');
  const [desc, setDesc] = useState('');
  const duplicate = todo.tasks.some((existing) => existing.task === task.trim());
  function add(event: FormEvent) {
    event.preventDefault();
    const name = task.trim();
    if (name === '' || duplicate) return;
    void send(todoEvents.newTask(todo, name, desc.trim())).then((done) => {
      if (!done) return;
      setTask('');
      setDesc('');
    });
  }
  return (
    <div className="widget" role="group" aria-label={t('To-do list')}>
      <EditableTitle
        text={todo.title || t('Task list')}
        editLabel={t('Edit title')}
        inputLabel={t('Title')}
        mayEdit={message.sender_id === state.me.user_id}
        onSave={(title) => send(todoEvents.title(title))}
      />
      <ul aria-label={t('Tasks')}>
        {todo.tasks.map((item) => (
          <li key={item.key} className={item.completed ? 'done' : undefined}>
            <label>
              <input type="checkbox" checked={item.completed} onChange={() => void send(todoEvents.strike(item))} /> <strong>{item.task}</strong>
              {item.desc && <span className="muted">: {item.desc}</span>}
            </label>
          </li>
        ))}
      </ul>
      <form className="widget-line" aria-label={t('Add a task')} onSubmit={add}>
        <input aria-label={t('New task')} placeholder={t('New task')} value={task} maxLength={200} onChange={(event) => setTask(event.target.value)} />
        <input aria-label={t('Task description')} placeholder={t('Task description')} value={desc} maxLength={500} onChange={(event) => setDesc(event.target.value)} />
        <button type="submit" className="small" disabled={task.trim() === '' || duplicate}>
          {t('Add task')}
        </button>
      </form>
    </div>
  );
}

/**
 * A message's widget (a poll or a to-do list) in place of its text, as Zulip's widgetize does.
 * Each action is a submessage (POST /submessage); what it changes shows when its `submessage`
 * event comes back, for everyone alike.
 */
export function MessageWidget({ widget, message, state }: { widget: WidgetState; message: Message; state: ChatState }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const send: Send = async (data) => {
    setError(null);
    try {
      await ok(typedApi.POST('/submessage', { body: { message_id: message.id, msg_type: 'widget', content: JSON.stringify(data) } }));
      return true;
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : t('Something went wrong. Try again.'));
      return false;
    }
  };
  return (
    <>
      {widget.kind === 'poll' ? <Poll poll={widget} message={message} state={state} send={send} /> : <Todo todo={widget} message={message} state={state} send={send} />}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </>
  );
}

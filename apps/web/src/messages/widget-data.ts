import type { Message, Submessage } from '../api/types';

/**
 * Zulip's widget protocol (web/src/widgetize.ts, web/shared/src/poll_data.ts,
 * web/src/todo_widget.ts): a message's first submessage, from its sender, is
 * `{"widget_type": "poll" | "todo", "extra_data": …}`; every later one is an event of that widget
 * (JSON, msg_type `widget`), applied in order. The state is derived from the submessages alone,
 * so a live `submessage` event and a reload show the same thing.
 */

/** Zulip's MAX_IDX: the most options or tasks one person adds to one widget. */
const MAX_IDX = 1000;

export interface PollOption {
  /** `<sender id or "canned">,<idx>`, as Zulip keys them. */
  key: string;
  option: string;
  /** Who voted for it, in the order they voted. */
  voters: number[];
}

export interface PollState {
  kind: 'poll';
  question: string;
  options: PollOption[];
  /** The idx my next new option takes. */
  nextIdx: number;
}

export interface TodoTask {
  /** `<idx>,<sender id or "canned">`, as Zulip keys them. */
  key: string;
  task: string;
  desc: string;
  completed: boolean;
}

export interface TodoState {
  kind: 'todo';
  /** Empty when the list has none (Zulip shows "Task list"). */
  title: string;
  tasks: TodoTask[];
  /** The idx my next new task takes. */
  nextIdx: number;
}

export type WidgetState = PollState | TodoState;

const parse = (content: string): unknown => {
  try {
    return JSON.parse(content);
  } catch {
    return null;
  }
};
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isIdx = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_IDX;
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

function pollOf(message: Message, extra: Record<string, unknown>, events: Submessage[], me: number): PollState {
  let question = typeof extra.question === 'string' ? extra.question : '';
  const options = new Map<string, PollOption>();
  let nextIdx = 1;
  const addOption = (sender: number | 'canned', idx: number, option: string) => {
    // The /poll syntax lets an option come twice; Zulip shows it once.
    if ([...options.values()].some((o) => o.option === option)) return;
    options.set(`${sender},${idx}`, { key: `${sender},${idx}`, option, voters: [] });
    if (sender === me && nextIdx <= idx) nextIdx = idx + 1;
  };
  strings(extra.options).forEach((option, idx) => addOption('canned', idx, option));
  for (const submessage of events) {
    const data = parse(submessage.content);
    if (!isRecord(data)) continue;
    const sender = submessage.sender_id;
    if (data.type === 'new_option' && typeof data.option === 'string' && isIdx(data.idx)) addOption(sender, data.idx, data.option);
    else if (data.type === 'question' && typeof data.question === 'string' && sender === message.sender_id) question = data.question;
    else if (data.type === 'vote' && typeof data.key === 'string' && (data.vote === 1 || data.vote === -1)) {
      const option = options.get(data.key);
      if (!option) continue;
      const others = option.voters.filter((id) => id !== sender);
      option.voters = data.vote === 1 ? [...others, sender] : others;
    }
  }
  return { kind: 'poll', question, options: [...options.values()], nextIdx };
}

function todoOf(message: Message, extra: Record<string, unknown>, events: Submessage[], me: number): TodoState {
  let title = typeof extra.task_list_title === 'string' ? extra.task_list_title : '';
  const tasks = new Map<string, TodoTask>();
  let nextIdx = 1;
  const addTask = (sender: number | 'canned', idx: number, task: string, desc: string, completed: boolean) => {
    // Zulip keeps one task of a name.
    if (![...tasks.values()].some((t) => t.task === task)) tasks.set(`${idx},${sender}`, { key: `${idx},${sender}`, task, desc, completed });
    if (sender === me && nextIdx <= idx) nextIdx = idx + 1;
  };
  const canned = Array.isArray(extra.tasks) ? extra.tasks : [];
  canned.forEach((item: unknown, idx) => {
    if (isRecord(item) && typeof item.task === 'string') addTask('canned', idx, item.task, typeof item.desc === 'string' ? item.desc : '', false);
  });
  for (const submessage of events) {
    const data = parse(submessage.content);
    if (!isRecord(data)) continue;
    const sender = submessage.sender_id;
    if (data.type === 'new_task' && typeof data.task === 'string' && typeof data.desc === 'string' && typeof data.completed === 'boolean' && isIdx(data.key)) {
      addTask(sender, data.key, data.task, data.desc, data.completed);
    } else if (data.type === 'strike' && typeof data.key === 'string') {
      const task = tasks.get(data.key);
      if (task) task.completed = !task.completed;
    } else if (data.type === 'new_task_list_title' && typeof data.title === 'string' && sender === message.sender_id) title = data.title;
  }
  return { kind: 'todo', title, tasks: [...tasks.values()], nextIdx };
}

/** The widget a message holds, as its submessages leave it; null for a message without one. */
export function widgetState(message: Message, me: number): WidgetState | null {
  const [first, ...events] = (message.submessages ?? []).filter((sub) => sub.msg_type === 'widget');
  if (!first || first.sender_id !== message.sender_id) return null;
  const widget = parse(first.content);
  if (!isRecord(widget)) return null;
  const extra = isRecord(widget.extra_data) ? widget.extra_data : {};
  if (widget.widget_type === 'poll') return pollOf(message, extra, events, me);
  if (widget.widget_type === 'todo') return todoOf(message, extra, events, me);
  return null;
}

/** The events my actions send (the content of POST /submessage), as Zulip's widgets write them. */
export const pollEvents = {
  vote: (option: PollOption, me: number) => ({ type: 'vote', key: option.key, vote: option.voters.includes(me) ? -1 : 1 }),
  newOption: (poll: PollState, option: string) => ({ type: 'new_option', idx: poll.nextIdx, option }),
  question: (question: string) => ({ type: 'question', question }),
};

export const todoEvents = {
  newTask: (todo: TodoState, task: string, desc: string) => ({ type: 'new_task', key: todo.nextIdx, task, desc, completed: false }),
  strike: (task: TodoTask) => ({ type: 'strike', key: task.key }),
  title: (title: string) => ({ type: 'new_task_list_title', title }),
};

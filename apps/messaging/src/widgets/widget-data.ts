import { badRequest } from '@teamchat/zulip';

/**
 * Widgets (zerver/lib/widget.py, the poll and todo validators of zerver/lib/validator.py): a
 * message whose content starts `/poll` or `/todo` gets a `widget` submessage from its sender,
 * and the votes and changes people then send are checked against the widget's event schemas.
 */

export type WidgetType = 'poll' | 'todo';

/** Python's str.splitlines (a final line break makes no empty line). */
function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A list item's text without its `-` or `*` marker. */
const itemText = (line: string): string => line.trim().replace(/^\s*[-*]?\s*/, '');

function pollExtraData(rest: string) {
  const lines = splitLines(rest);
  let question = '';
  if (lines.length > 0 && lines[0]) question = lines.shift()!.trim();
  const options = lines.map(itemText).filter((option) => option.length > 0);
  return { question, options };
}

function todoExtraData(rest: string) {
  const lines = splitLines(rest);
  let title = '';
  if (lines.length > 0 && lines[0]) title = lines.shift()!.trim();
  const tasks = lines
    .map(itemText)
    .filter((task) => task.length > 0)
    .map((task) => {
      const colon = task.indexOf(': ');
      return colon < 0 ? { task: task.trim(), desc: '' } : { task: task.slice(0, colon).trim(), desc: task.slice(colon + 2).trim() };
    });
  return { task_list_title: title, tasks };
}

/**
 * Zulip's get_widget_data: the widget a message's content starts, with its initial data, or
 * null. Only content starting `/poll` or `/todo` is looked at further, so a send pays nothing more.
 */
export function widgetOf(content: string): { widget_type: WidgetType; extra_data: unknown } | null {
  if (!content.startsWith('/poll') && !content.startsWith('/todo')) return null;
  const first = content.split(/\s+/)[0];
  const type = first.slice(1);
  if (type !== 'poll' && type !== 'todo') return null;
  const rest = content.replace(first, '');
  return { widget_type: type, extra_data: type === 'poll' ? pollExtraData(rest) : todoExtraData(rest) };
}

/** JSON as Python's json.dumps writes it (`", "` and `": "`, non-ASCII escaped), the text Zulip stores. */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([key, item]) => `${pythonJson(key)}: ${pythonJson(item)}`).join(', ')}}`;
  }
  if (typeof value === 'string') return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return JSON.stringify(value);
}

// Zulip's validators, with their error texts (a ValidationError's message becomes the error).
type Check = (name: string, value: unknown) => void;

const isDict = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
/** Python's int, which a boolean is too. */
const asInt = (name: string, value: unknown): number => {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw badRequest(`${name} is not an integer`);
  return value;
};
const str: Check = (name, value) => {
  if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
};
const bool: Check = (name, value) => {
  if (typeof value !== 'boolean') throw badRequest(`${name} is not a boolean`);
};
const intIn =
  (allowed: number[]): Check =>
  (name, value) => {
    if (!allowed.includes(asInt(name, value))) throw badRequest(`Invalid ${name}`);
  };
const intRange =
  (low: number, high: number): Check =>
  (name, value) => {
    const n = asInt(name, value);
    if (n < low) throw badRequest(`${name} is too small`);
    if (n > high) throw badRequest(`${name} is too large`);
  };

/** check_dict (with only: check_dict_only). */
function dict(required: [string, Check][], only: boolean): Check {
  return (name, value) => {
    if (!isDict(value)) throw badRequest(`${name} is not a dict`);
    for (const [key, check] of required) {
      if (!(key in value)) throw badRequest(`${key} key is missing from ${name}`);
      check(`${name}["${key}"]`, value[key]);
    }
    if (only) {
      const extra = Object.keys(value).filter((key) => !required.some(([known]) => known === key));
      if (extra.length > 0) throw badRequest(`Unexpected arguments: ${extra.join(', ')}`);
    }
  };
}

/** Zulip's MAX_IDX, as the clients' widgets have it. */
const MAX_IDX = 1000;

/** Zulip's validate_poll_data. */
export function checkPollData(data: unknown, isAuthor: boolean): void {
  const name = 'poll data';
  dict([['type', str]], false)(name, data);
  const type = (data as { type: string }).type;
  if (type === 'vote') return dict([['type', str], ['key', str], ['vote', intIn([1, -1])]], true)(name, data);
  if (type === 'question') {
    if (!isAuthor) throw badRequest("You can't edit a question unless you are the author.");
    return dict([['type', str], ['question', str]], true)(name, data);
  }
  if (type === 'new_option') return dict([['type', str], ['option', str], ['idx', intRange(0, MAX_IDX)]], true)(name, data);
  throw badRequest(`Unknown type for poll data: ${type}`);
}

/** Zulip's validate_todo_data. */
export function checkTodoData(data: unknown, isAuthor: boolean): void {
  const name = 'todo data';
  dict([['type', str]], false)(name, data);
  const type = (data as { type: string }).type;
  if (type === 'new_task') {
    return dict([['type', str], ['key', intRange(0, MAX_IDX)], ['task', str], ['desc', str], ['completed', bool]], true)(name, data);
  }
  if (type === 'strike') return dict([['type', str], ['key', str]], true)(name, data);
  if (type === 'new_task_list_title') {
    if (!isAuthor) throw badRequest("You can't edit the task list title unless you are the author.");
    return dict([['type', str], ['title', str]], true)(name, data);
  }
  throw badRequest(`Unknown type for todo data: ${type}`);
}

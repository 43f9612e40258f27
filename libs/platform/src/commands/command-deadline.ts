import { AsyncLocalStorage } from 'node:async_hooks';
import { ZulipError } from '@teamchat/zulip';

/**
 * A command's time, as its caller set it (CommandClient puts both in the request):
 * - `deadline`: the last moment to start work. CommandServer never starts a command past it,
 *   and work that queues (password hashing) refuses at once when it could not finish by then.
 * - `expires`: when the caller stops waiting (its own timeout). A change commits only while its
 *   answer can still reach the caller (refuseIfTooLateToCommit), and what follows a commit is
 *   bounded by it (timeToAnswerMs), so a 503 never hides a change that was kept.
 */
export interface CommandTime {
  deadline: number;
  expires: number;
}

const current = new AsyncLocalStorage<CommandTime>();

/** How much sooner than its own timeout a caller's deadline falls: the reply's way back, and a command that only just started. */
export const DEADLINE_MARGIN_MS = 1000;

/** The time an answer needs to reach its caller after a commit (the events' publication, the reply). */
const ANSWER_MS = 250;

/** Runs `work` with the command's time (epoch milliseconds) in scope. */
export function withDeadline<T>(deadline: number, work: () => T, expires = deadline + DEADLINE_MARGIN_MS): T {
  return current.run({ deadline, expires }, work);
}

/**
 * The time of a caller that waits `timeoutMs` from now (an HTTP request, in the gateway): the
 * commands it calls one after another (a credential check, then the command) are each given
 * it (`CommandClient.call`'s `within`), so the request is answered within it, not within a
 * timeout per call. Passed by hand rather than kept in scope: the gateway runs no command in
 * an AsyncLocalStorage, whose hooks, once on, cost every promise of the process (6 % of the
 * gateway's CPU per delivery under `npm run bench:events`).
 */
export function callerTime(timeoutMs: number, now = Date.now()): CommandTime {
  return ownTime(timeoutMs, now);
}

/** A caller's time waiting `timeoutMs` from `now`: it stops then, and work starts no later than a margin before. */
function ownTime(timeoutMs: number, now: number): CommandTime {
  return { deadline: now + Math.max(timeoutMs / 2, timeoutMs - DEADLINE_MARGIN_MS), expires: now + timeoutMs };
}

/** Runs `work` outside the command being served: a follow-up left to run after the answer, with time of its own. */
export function outsideCommand<T>(work: () => T): T {
  return current.exit(work);
}

/**
 * The time of a call made now with this timeout. Made while serving a command (or for a caller
 * with a time of its own, `within`), it must be answered in time for that command's own answer,
 * and may start (a follow-up after a commit) even though that command's deadline to start has passed.
 */
export function callTime(timeoutMs: number, now = Date.now(), within?: CommandTime): CommandTime {
  const own = ownTime(timeoutMs, now);
  const serving = within ?? current.getStore();
  if (!serving || serving.expires === Infinity) return own;
  const expires = Math.min(own.expires, serving.expires - ANSWER_MS);
  return { expires, deadline: Math.min(own.deadline, expires - ANSWER_MS) };
}

/** How long the command being served may still start work (Infinity outside a command). */
export function timeLeftMs(now = Date.now()): number {
  const time = current.getStore();
  return time === undefined ? Infinity : time.deadline - now;
}

/** How long work after a commit may take and still be answered in time (Infinity outside a command). */
export function timeToAnswerMs(now = Date.now()): number {
  const time = current.getStore();
  return time === undefined ? Infinity : time.expires - ANSWER_MS - now;
}

/** The answer to a command refused for want of time or room: not done, try again shortly. */
export const overloaded = (): ZulipError => new ZulipError('SERVICE_UNAVAILABLE', 'Service temporarily unavailable', { 'retry-after': 1 });

/**
 * Refuses the command once its answer could no longer reach the caller in time. Called just
 * before a commit: work the caller would never hear of is rolled back and answered "not done",
 * never kept behind a 503. Outside a command it does nothing.
 */
export function refuseIfTooLateToCommit(now = Date.now()): void {
  if (timeToAnswerMs(now) <= 0) throw overloaded();
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { ZulipError } from '@teamchat/zulip';

/**
 * A command's deadline: the moment its caller stops waiting (CommandClient puts it in the
 * request, a second before its own timeout). CommandServer never starts a command past it, and
 * runs each handler with it in scope, so work that queues (password hashing) can refuse at once,
 * before doing anything, when it could not finish in time.
 */
const current = new AsyncLocalStorage<number>();

/** Runs `work` with the command's deadline (epoch milliseconds) in scope. */
export function withDeadline<T>(deadline: number, work: () => T): T {
  return current.run(deadline, work);
}

/** The deadline of the command being served, or undefined outside one (a test, a worker). */
export function commandDeadline(): number | undefined {
  return current.getStore();
}

/** How much the caller of the command being served still waits (Infinity outside a command). */
export function timeLeftMs(now = Date.now()): number {
  const deadline = current.getStore();
  return deadline === undefined ? Infinity : deadline - now;
}

/** The answer to a command refused for want of time or room: not done, try again shortly. */
export const overloaded = (): ZulipError => new ZulipError('SERVICE_UNAVAILABLE', 'Service temporarily unavailable', { 'retry-after': 1 });

/** How much sooner than its own timeout a caller's deadline falls: the reply's way back, and a command that only just started. */
export const DEADLINE_MARGIN_MS = 1000;

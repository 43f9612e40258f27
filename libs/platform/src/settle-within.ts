/**
 * What `work` settles to, or `fallback` once `ms` have passed first (the work goes on; its
 * outcome is no longer awaited). The timer does not hold the process open.
 */
export function settleWithin<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  const late = new Promise<T>((resolve) => setTimeout(resolve, Math.max(0, ms), fallback).unref());
  return Promise.race([work, late]);
}

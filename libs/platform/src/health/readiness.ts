import { settleWithin } from '../settle-within';

/** A named dependency check; readiness is the conjunction of all of a process's checks. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<boolean>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

export async function runChecks(checks: ReadinessCheck[], timeoutMs = 2000): Promise<Record<string, boolean>> {
  const results = await Promise.all(
    checks.map(async ({ name, check }) => [name, await settleWithin(check().catch(() => false), timeoutMs, false)] as const),
  );
  return Object.fromEntries(results);
}

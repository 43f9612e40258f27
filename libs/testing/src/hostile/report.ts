import type { RawAnswer } from './http';

/** What a request was, for judging its answer and for the report. */
export interface Sent {
  /** `METHOD /path` of the declared endpoint, or a file route's label. */
  endpoint: string;
  /** Who sent it: owner, member, unauthenticated, wrong-key, other-org, an Authorization shape. */
  role: string;
  /** The hostile value's kind, the encoding, or the path variant. */
  kind: string;
  /** The parameter the hostile value is in, when there is one. */
  target?: string;
  request: string;
}

/** What the answer must not be, beyond "no 5xx". */
export interface Expectations {
  /** The answer is a file or tus, not the API's envelope: only "no 5xx" holds. */
  notApi?: boolean;
  /** No valid credentials for an endpoint that needs them: never 2xx, never a parameter error. */
  refuse?: boolean;
  /** Names something that does not exist (a LIKE wildcard in an existing name): never 2xx. */
  nothingMatches?: boolean;
}

export interface Failure extends Sent {
  problem: string;
  status: number;
  body: string;
}

const PARAMETER_CODES = new Set(['REQUEST_VARIABLE_MISSING', 'REQUEST_VARIABLE_INVALID', 'REQUEST_CONFUSING_VAR', 'INVALID_JSON']);
/** decode-params.ts's messages for a value its declaration refuses. */
const PARAMETER_MESSAGES =
  /is not valid JSON|is not an? (integer|boolean|string|list|dict)|is too (long|large|small|short)|cannot be blank|must not contain null bytes|^Invalid [a-z_]+(\[|$)|^Argument ".*" at |^Missing '/;

interface Envelope {
  result?: unknown;
  msg?: unknown;
  code?: unknown;
}

function parse(text: string): Envelope | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Envelope) : undefined;
  } catch {
    return undefined;
  }
}

const isEnvelope = (body: Envelope | undefined) => body?.result === 'error' && typeof body.msg === 'string' && typeof body.code === 'string';

/** A response that shows the handler looked at the parameters: a parameter-validation error. */
export function isParameterError(status: number, text: string): boolean {
  const body = parse(text);
  if (!isEnvelope(body) || status !== 400) return false;
  return PARAMETER_CODES.has(body!.code as string) || (body!.code === 'BAD_REQUEST' && PARAMETER_MESSAGES.test(body!.msg as string));
}

/** The problems with one answer (none when it is as it should be). */
export function judge(answer: RawAnswer, expect: Expectations): string[] {
  const problems: string[] = [];
  if (answer.status === -1) return problems; // the test's own client would not send it
  if (answer.status === 0) return [`no answer (${answer.error ?? 'connection closed'})`];
  if (answer.status >= 500) problems.push('5xx');
  const success = answer.status >= 200 && answer.status < 300;
  if (!expect.notApi && answer.status >= 400 && !isEnvelope(parse(answer.text))) problems.push('error is not the Zulip envelope');
  if (expect.refuse && success) problems.push('success without valid credentials');
  if (expect.refuse && isParameterError(answer.status, answer.text)) problems.push('parameters validated before authentication');
  if (expect.nothingMatches && success) problems.push('a LIKE wildcard matched an existing name');
  return problems;
}

/** Every failure of a run, deduplicated by (endpoint, kind, status, problem) with a count and the first example. */
export class FailureLog {
  private readonly seen = new Map<string, { failure: Failure; count: number }>();
  requests = 0;

  /** Time spent per kind, and the slowest requests: not failures, but where a run's time goes. */
  readonly timeByKind = new Map<string, { count: number; totalMs: number; maxMs: number }>();
  slowest: { ms: number; endpoint: string; kind: string; role: string; status: number }[] = [];

  record(sent: Sent, answer: RawAnswer, expect: Expectations, ms = 0): void {
    this.requests++;
    const time = this.timeByKind.get(sent.kind) ?? { count: 0, totalMs: 0, maxMs: 0 };
    time.count++;
    time.totalMs += ms;
    time.maxMs = Math.max(time.maxMs, ms);
    this.timeByKind.set(sent.kind, time);
    if (this.slowest.length < 10 || ms > this.slowest[this.slowest.length - 1].ms) {
      this.slowest.push({ ms, endpoint: sent.endpoint, kind: sent.kind, role: sent.role, status: answer.status });
      this.slowest = this.slowest.sort((a, b) => b.ms - a.ms).slice(0, 10);
    }
    for (const problem of judge(answer, expect)) this.add({ ...sent, problem, status: answer.status, body: snippet(answer) });
  }

  add(failure: Failure): void {
    const key = [failure.endpoint, failure.kind, failure.status, failure.problem].join('\u0001');
    const entry = this.seen.get(key);
    if (entry) entry.count++;
    else this.seen.set(key, { failure, count: 1 });
  }

  get size(): number {
    return this.seen.size;
  }

  entries(): { failure: Failure; count: number }[] {
    return [...this.seen.values()];
  }

  /** The report: grouped by problem and status, then endpoint and kind. */
  format(): string {
    const groups = new Map<string, { failure: Failure; count: number }[]>();
    for (const entry of this.seen.values()) {
      const key = `${entry.failure.problem} — ${entry.failure.status}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key)!.push(entry);
    }
    const lines: string[] = [];
    for (const [key, entries] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`\n== ${key} (${entries.length} distinct)`);
      entries.sort((a, b) => a.failure.endpoint.localeCompare(b.failure.endpoint) || a.failure.kind.localeCompare(b.failure.kind));
      for (const { failure: f, count } of entries) {
        lines.push(
          `- ${f.endpoint} · kind=${f.kind}${f.target ? ` (in ${f.target})` : ''} · as ${f.role} · ×${count}`,
          `    sent: ${f.request}`,
          `    got:  ${f.status} ${f.body}`,
        );
      }
    }
    return lines.join('\n');
  }
}

function snippet(answer: RawAnswer): string {
  if (answer.status === 0) return answer.error ?? '';
  const text = answer.text.replace(/\s+/g, ' ');
  return text.length > 240 ? `${text.slice(0, 240)}…` : text || '(empty body)';
}

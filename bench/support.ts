import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { createTemplateDatabase, TestSystem } from '@teamchat/testing';

/** Starts the whole system as the tests do (real processes, fresh database) for a benchmark. */
export async function startBenchSystem(env: Record<string, string> = {}, gateways = 1): Promise<TestSystem> {
  process.env.TEAMCHAT_TEMPLATE_DB ??= `teamchat_bench_template_${randomBytes(4).toString('hex')}`;
  await createTemplateDatabase();
  // BENCH_NODE_ARGS reach every service process: `--cpu-prof --cpu-prof-dir=/tmp/prof` profiles them.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // The credential cache keeps its deployment default (the tests shorten it to see revocations sooner).
  return TestSystem.start({ env: { LOG_LEVEL: 'error', AUTH_CACHE_TTL_SECONDS: '5', ...env }, gateways, nodeArgs });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A keep-alive form POST that resolves with the status code and body text. */
export function postForm(
  agent: http.Agent,
  url: URL,
  host: string,
  authorization: string,
  form: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const payload = Buffer.from(new URLSearchParams(form).toString());
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          Host: host,
          Authorization: authorization,
          'Content-Type': 'application/x-www-form-urlencoded',
          'Content-Length': String(payload.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Runs a benchmark's main and exits with its outcome (the processes it started are stopped by then). */
export function runBenchmark(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

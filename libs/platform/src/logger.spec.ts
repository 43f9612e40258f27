import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { workspaceRoot } from '@teamchat/testing';

/** What one log call prints from a fresh process, stdout a terminal or a pipe, as NODE_ENV says. */
function logLine({ terminal, nodeEnv }: { terminal: boolean; nodeEnv: string }): string {
  const logger = path.join(workspaceRoot(), 'dist/libs/platform/src/logger.js');
  const script = `
    process.stdout.isTTY = ${terminal};
    const { createLogger } = require(${JSON.stringify(logger)});
    createLogger('gateway', 'info').info({ port: 9991 }, 'gateway ready');`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, NODE_ENV: nodeEnv } });
  expect(run.stderr).toBe('');
  return run.stdout;
}

describe('service logs', () => {
  it('are one JSON object per line when piped', () => {
    const out = logLine({ terminal: false, nodeEnv: 'development' });
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(out)).toMatchObject({ level: 30, service: 'gateway', port: 9991, msg: 'gateway ready' });
  });

  it('are JSON in production, even in a terminal', () => {
    expect(JSON.parse(logLine({ terminal: true, nodeEnv: 'production' }))).toMatchObject({ service: 'gateway', msg: 'gateway ready' });
  });

  it('are readable in a terminal: one line with the time, level, service, message and fields', () => {
    // eslint-disable-next-line no-control-regex
    const out = logLine({ terminal: true, nodeEnv: 'development' }).replace(/\x1b\[[0-9;]*m/g, '');
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(out).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: gateway ready \{"service":"gateway","port":9991\}\n$/);
  });
});

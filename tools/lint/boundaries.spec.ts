import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** The lint rules that hold the data layer's boundary (eslint.config.mjs), on code written here. */
describe('boundary lint rules', () => {
  // The CLI, as `npm run lint` runs it (its config is an ES module, which Jest's runtime cannot load).
  const rulesHit = async (code: string, file: string) => {
    // The report goes to a file: without Nx's cached project graph, a warning comes first on stdout.
    const report = path.join(mkdtempSync(path.join(os.tmpdir(), 'lint-')), 'report.json');
    spawnSync(path.join(root, 'node_modules/.bin/eslint'), ['--stdin', '--stdin-filename', file, '-f', 'json', '-o', report], { cwd: root, input: code });
    const [result] = JSON.parse(readFileSync(report, 'utf8')) as { messages: { ruleId: string }[] }[];
    return result.messages.map((message) => message.ruleId);
  };

  it('refuses a database client in a use case', async () => {
    expect(await rulesHit("import { PrismaService } from '@teamchat/db';\n", 'apps/scheduler/src/some/new.use-case.ts')).toEqual(['no-restricted-imports']);
    expect(await rulesHit("import { PgService, statement } from '@teamchat/db';\n", 'apps/push/src/some/new.use-case.ts')).toEqual(['no-restricted-imports', 'no-restricted-imports']);
    expect(await rulesHit("import { Pool } from 'pg';\n", 'apps/uploads/src/some/new.ts')).toEqual(['no-restricted-imports']);
  });

  it('lets a repository use one, and anyone use the model types and id checks', async () => {
    expect(await rulesHit("import { PrismaService } from '@teamchat/db';\n", 'apps/scheduler/src/data/new.repository.ts')).toEqual([]);
    expect(await rulesHit("import { isStoredId, type StreamModel } from '@teamchat/db';\n", 'apps/scheduler/src/some/new.use-case.ts')).toEqual([]);
  });
});

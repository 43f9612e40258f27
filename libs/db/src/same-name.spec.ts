import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    // libs/testing is test support (its hostile-input run names LIKE wildcards in its reports).
    if (['node_modules', 'dist', 'generated'].includes(entry.name) || full.endsWith(path.join('libs', 'testing'))) continue;
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !full.includes(`${path.sep}test${path.sep}`)) yield full;
  }
}

/**
 * Names are compared by `lower(x) = lower($1)` (same-name.ts). Prisma's insensitive `equals`
 * is ILIKE underneath, where a client's `_` and `%` are wildcards: it once let `o_ner@…` fetch
 * `owner@…`'s API key. The only LIKE left is search's, whose pattern escapes both.
 */
describe('name comparisons', () => {
  const files = ['apps', 'libs', 'tools'].flatMap((dir) => [...sourceFiles(path.join(root, dir))]);
  const code = (file: string) => readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');

  it('finds the project’s source files', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((file) => file.endsWith(path.join('libs', 'db', 'src', 'same-name.ts')))).toBe(true);
  });

  it('never compares input with Prisma’s insensitive mode (ILIKE)', () => {
    const offenders = files.filter((file) => /mode:\s*['"]insensitive['"]/.test(code(file)));
    expect(offenders.map((file) => path.relative(root, file))).toEqual([]);
  });

  it('uses LIKE only where the pattern escapes its wildcards (search phrases)', () => {
    const offenders = files.filter((file) => /\bI?LIKE\b/.test(code(file)));
    expect(offenders.map((file) => path.relative(root, file))).toEqual([path.join('apps', 'messaging', 'src', 'data', 'narrow-conditions.ts')]);
  });
});

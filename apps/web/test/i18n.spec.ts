import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SRC = path.join(__dirname, '../src');
const catalogue = JSON.parse(readFileSync(path.join(SRC, 'i18n/en.json'), 'utf8')) as Record<string, string>;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(path.join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [path.join(dir, entry.name)] : [],
  );
}

/** Every `t('…')` key in the app's source (keys are the English texts). */
function usedKeys(): Set<string> {
  const keys = new Set<string>();
  for (const file of sources(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'((?:[^'\\]|\\.)*)'/g)) keys.add(match[1].replace(/\\'/g, "'"));
  }
  return keys;
}

describe('the English catalogue (apps/web/src/i18n/en.json)', () => {
  it('lists every string the app shows, plurals with their _one and _other forms', () => {
    const used = usedKeys();
    expect(used.size).toBeGreaterThan(50);
    const missing = [...used].filter((key) => catalogue[key] === undefined && (catalogue[`${key}_one`] === undefined || catalogue[`${key}_other`] === undefined));
    expect(missing).toEqual([]);
  });

  it('lists nothing the app no longer uses', () => {
    const used = usedKeys();
    expect(Object.keys(catalogue).filter((key) => !used.has(key.replace(/_(one|other)$/, '')))).toEqual([]);
  });
});

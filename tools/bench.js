#!/usr/bin/env node
// `npm run bench:<name>`: builds the workspace and the benchmarks, then runs bench/<name>.ts.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const name = process.argv[2];
if (!name) {
  console.error('usage: node tools/bench.js <benchmark>   (a file in bench/, without .ts)');
  process.exit(2);
}
require('./build').build({ quiet: true });
execFileSync(path.join(root, 'node_modules/.bin/swc'), ['bench', '-d', 'dist', '--config-file', '.swcrc'], { cwd: root, stdio: 'ignore' });
require(path.join(root, 'dist/bench', `${name}.js`));

#!/usr/bin/env node
// Compiles the whole workspace (apps, libs, the admin command line) into dist/ with swc,
// which rewrites the @teamchat/* path aliases. Generates the Prisma client first if needed.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function build({ quiet = false } = {}) {
  const stdio = quiet ? 'ignore' : 'inherit';
  if (!fs.existsSync(path.join(root, 'libs/db/src/generated/prisma/client.ts'))) {
    execFileSync(bin('prisma'), ['generate'], {
      cwd: root,
      stdio,
      env: { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/teamchat', ...process.env },
    });
  }
  execFileSync(bin('swc'), ['apps', 'libs', 'tools/admin/admin-cli.ts', '-d', 'dist', '--config-file', '.swcrc', '--ignore', '**/*.spec.ts'], {
    cwd: root,
    stdio,
  });
}

module.exports = { build };
if (require.main === module) build();

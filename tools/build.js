#!/usr/bin/env node
// Compiles the whole workspace (apps, libs, the admin command line) into dist/ with swc,
// which rewrites the @teamchat/* path aliases, after generating the Prisma client.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function build({ quiet = false } = {}) {
  // Always: a schema change must never leave a stale client behind (it takes under a second).
  // Prisma wants a well-formed DATABASE_URL even to generate; it does not connect.
  execFileSync(bin('prisma'), ['generate'], {
    cwd: root,
    stdio: quiet ? 'ignore' : 'inherit',
    env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/teamchat' },
  });
  execFileSync(bin('swc'), ['apps', 'libs', 'tools/admin/admin-cli.ts', '-d', 'dist', '--config-file', '.swcrc', '--ignore', '**/*.spec.ts'], {
    cwd: root,
    stdio: quiet ? 'ignore' : 'inherit',
  });
}

module.exports = { build };
if (require.main === module) build();

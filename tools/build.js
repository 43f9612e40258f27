#!/usr/bin/env node
// Compiles the whole workspace (apps, libs, the admin command line) into dist/ with swc,
// which rewrites the @teamchat/* path aliases, after generating the Prisma client; then builds
// the web app (apps/web, Vite) into dist/web, which the gateway serves at `/`.
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
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
  execFileSync(bin('swc'), ['apps', 'libs', 'tools/admin/admin-cli.ts', '-d', 'dist', '--config-file', '.swcrc', '--ignore', '**/*.spec.ts,apps/web/**'], {
    cwd: root,
    stdio: quiet ? 'ignore' : 'inherit',
  });
  buildWeb({ quiet });
}

const WEB_DIR = path.join(root, 'apps/web');
const WEB_OUT = path.join(root, 'dist/web');
const WEB_STAMP = path.join(WEB_OUT, '.source-hash');

/** A digest of what the web build reads: apps/web (but its tests) and the lockfile. */
function webSourceHash() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'test' && entry.name !== 'node_modules') walk(full);
      } else {
        hash.update(path.relative(root, full)).update('\0').update(fs.readFileSync(full)).update('\0');
      }
    }
  };
  walk(WEB_DIR);
  hash.update(fs.readFileSync(path.join(root, 'package-lock.json')));
  hash.update('\0NODE_ENV=production'); // what a bundle built before this setting lacks
  return hash.digest('hex');
}

/**
 * Builds the web app into dist/web, unless what is there was built from the same sources (the
 * test setup builds on every run; Vite takes seconds on a small machine).
 */
function buildWeb({ quiet = false, force = false } = {}) {
  const digest = webSourceHash();
  if (!force && fs.existsSync(path.join(WEB_OUT, 'index.html')) && fs.existsSync(WEB_STAMP) && fs.readFileSync(WEB_STAMP, 'utf8') === digest) return;
  execFileSync(bin('vite'), ['build', '--config', path.join(WEB_DIR, 'vite.config.mts'), '--logLevel', quiet ? 'error' : 'info'], {
    cwd: root,
    // Always React's production build: NODE_ENV of the caller (jest's `test`, the launcher's
    // `development`) would otherwise give Vite a development bundle, twice the size.
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
  });
  fs.writeFileSync(WEB_STAMP, digest);
}

module.exports = { build, buildWeb };
if (require.main === module) build();

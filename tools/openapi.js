#!/usr/bin/env node
// `npm run openapi [-- <file>]`: writes the API's OpenAPI 3.1 document, generated from the
// endpoint declarations in libs/contracts (the one the gateway serves at /api/v1/openapi.json),
// to <file> (default dist/openapi.json), then validates it. Servers: EXTERNAL_URL.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
require('./build').build({ quiet: true });
const { buildOpenApiDocument } = require(path.join(root, 'dist/libs/contracts/src/index.js'));

const out = path.resolve(process.argv[2] ?? path.join(root, 'dist/openapi.json'));
const document = buildOpenApiDocument({ externalUrl: process.env.EXTERNAL_URL || 'http://localhost:9991' });
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
const operations = Object.values(document.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
const shown = path.relative(process.cwd(), out);
console.log(`wrote ${shown.startsWith('..') ? out : shown}: ${operations} operations`);
execFileSync(process.execPath, [path.join(__dirname, 'validate-openapi.mjs'), out], { stdio: 'inherit' });

#!/usr/bin/env node
// `npm run admin -- …`: builds the workspace when run from a source checkout, then runs the CLI.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
if (fs.existsSync(path.join(root, 'tools/build.js')) && fs.existsSync(path.join(root, 'node_modules/.bin/swc'))) {
  require('../build').build({ quiet: true });
}
require(path.join(root, 'dist/tools/admin/admin-cli.js'));

#!/usr/bin/env node
// Validates an OpenAPI document (a file path, or stdin) against the OpenAPI 3.x schemas.
// Prints the errors and exits 1 when it is not valid. (The validator is an ES module, so the
// Jest tests, which run CommonJS, call this as a process.)
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';

const text = readFileSync(process.argv[2] ?? 0, 'utf8');
const validator = new Validator();
const result = await validator.validate(JSON.parse(text));
if (!result.valid) {
  console.error(JSON.stringify(result.errors, null, 2));
  process.exit(1);
}
console.log(`valid OpenAPI ${validator.version}`);

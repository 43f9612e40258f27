import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.join(__dirname, '../../..');

describe("the web app's API types (apps/web/src/api/schema.d.ts)", () => {
  it("are what openapi-typescript makes of the server's OpenAPI document, so the client cannot drift from the API", () => {
    // The test run's global setup built dist/, whose contracts make the document.
    const out = execFileSync(process.execPath, [path.join(root, 'tools/web-api-types.js'), '--check', '--built'], { cwd: root, encoding: 'utf8' });
    expect(out).toContain('matches');
  });
});

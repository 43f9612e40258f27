import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

/**
 * The Node version we declare (package.json `engines`) is the one the Dockerfile builds on and
 * every installed package accepts, so `npm ci` installs without an EBADENGINE warning.
 */
const root = path.resolve(__dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
};
const declared = semver.minVersion(pkg.engines.node)!.version;

describe('the declared Node version', () => {
  it('is accepted by every package in the lockfile', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([name]) => name !== '')
      .flatMap(([name, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range && !semver.satisfies(declared, range, { includePrerelease: true }) ? [`${name}: node ${range}`] : [];
      });
    expect(refusing).toEqual([]);
  });

  it('is the major version the Dockerfile builds on, and this machine runs', () => {
    const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    const image = /ARG NODE_IMAGE=node:(\d+)/.exec(dockerfile)?.[1];
    expect(image).toBe(String(semver.major(declared)));
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });
});

/**
 * `npm run bench:web`: the web app's first load. Prints the gzip size of what the page loads
 * first (dist/web: index.html, its script and style sheet, and what they import statically) and of
 * the chunks loaded later; then the time from opening the app (navigation start, the session cookie
 * already set) to the first message shown (an `article` in the region "Messages"), for a member of
 * an organization of BENCH_USERS users (1000) with BENCH_CHANNELS channels (100) they are
 * subscribed to, over BENCH_RUNS openings (7), each in a fresh browser context (cold HTTP cache)
 * of Debian's chromium.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { Factory, workspaceRoot } from '@teamchat/testing';
import { createUsers, percentile, runBenchmark, startBenchSystem } from './support';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The first load's files and the lazily loaded ones, with their gzip sizes (level 9). */
function bundleSizes() {
  const dir = path.join(workspaceRoot(), 'dist/web');
  const gz = (file: string) => gzipSync(readFileSync(path.join(dir, file)), { level: 9 }).length;
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  const first = new Set<string>(['index.html']);
  const queue = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
  // Static imports of the entry (Vite's shared chunks) load with it; dynamic import() ones later.
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (first.has(file)) continue;
    first.add(file);
    if (!file.endsWith('.js')) continue;
    const code = readFileSync(path.join(dir, file), 'utf8');
    for (const m of code.matchAll(/(?:^|[;\s}])import\s*(?:[\w${},\s*]+from\s*)?["']\.\/([^"']+\.js)["']/g)) queue.push(`assets/${m[1]}`);
  }
  const all = readdirSync(path.join(dir, 'assets')).map((file) => `assets/${file}`);
  const later = all.filter((file) => !first.has(file));
  return {
    first: [...first].map((file) => ({ file, gzip: gz(file) })),
    later: later.map((file) => ({ file, gzip: gz(file) })),
  };
}

async function main() {
  if (!existsSync(CHROMIUM)) throw new Error(`No browser at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  const userCount = Number(process.env.BENCH_USERS ?? 1000);
  const channelCount = Number(process.env.BENCH_CHANNELS ?? 100);
  const runs = Number(process.env.BENCH_RUNS ?? 7);

  const sizes = bundleSizes();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const firstTotal = sizes.first.reduce((sum, f) => sum + f.gzip, 0);
  console.log(`\nbench:web  bundle (gzip -9): first load ${kb(firstTotal)} (target < 300 KB)`);
  for (const f of sizes.first) console.log(`    ${f.file}  ${kb(f.gzip)}`);
  console.log(`  loaded later: ${kb(sizes.later.reduce((sum, f) => sum + f.gzip, 0))}`);
  for (const f of sizes.later) console.log(`    ${f.file}  ${kb(f.gzip)}`);

  const system = await startBenchSystem();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
  try {
    const factory = new Factory(system.db);
    // The browser's Host is an IP address, which selects the root organization.
    const realm = await factory.organization({ subdomain: '', name: 'Bench' });
    const member = await factory.user(realm, { fullName: 'Member', email: 'member@bench.test' });
    console.log(`\nbench:web  ${userCount} users, ${channelCount} channels: setting up…`);
    const channels = [];
    for (let i = 0; i < channelCount; i++) channels.push(await factory.channel(realm, { name: `channel ${i}`, subscribers: [member] }));
    await createUsers(system, realm.id, channels[0].id, userCount - 1);
    await factory.channelMessages(member, channels[0], 'bench', 50);
    const base = `http://127.0.0.1:${system.ports.gateway}`;

    // Log in once; every opening starts with that session (as a returning user does).
    const login = await browser.newContext();
    const page = await login.newPage();
    await page.goto(`${base}/`);
    await page.getByRole('textbox', { name: 'Email' }).fill(member.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(member.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('region', { name: 'Messages' }).getByRole('article').first().waitFor({ timeout: 30_000 });
    const storageState = await login.storageState();
    await login.close();

    const times: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      const context = await browser.newContext({ storageState, viewport: { width: 1280, height: 800 } });
      const tab = await context.newPage();
      // The moment (ms since navigation start) the first message is in the page.
      // (Scripts as text: this file is compiled for Node, without the DOM's types.)
      await tab.addInitScript({
        content: `new MutationObserver((_, observer) => {
          if (document.querySelector('[aria-label="Messages"] article')) { window.__firstMessageMs = performance.now(); observer.disconnect(); }
        }).observe(document, { childList: true, subtree: true });`,
      });
      await tab.goto(`${base}/#feed`);
      // Functions, not strings: the page's Content-Security-Policy refuses eval.
      await tab.waitForFunction(() => (globalThis as { __firstMessageMs?: number }).__firstMessageMs !== undefined, undefined, { timeout: 30_000 });
      const ms = await tab.evaluate(() => (globalThis as { __firstMessageMs?: number }).__firstMessageMs ?? NaN);
      if (i > 0) times.push(ms); // the first opening warms the server's caches
      await context.close();
    }
    const sorted = [...times].sort((a, b) => a - b);
    console.log(`\n  open the app → first messages shown (${runs} openings, fresh browser contexts, after one warm-up):`);
    console.log(`    median ${percentile(sorted, 50).toFixed(0)} ms, min ${sorted[0].toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms (target < 1000 ms)`);
  } finally {
    await browser.close();
    await system.stop();
  }
}

runBenchmark(main);

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium package (playwright-core drives it; it downloads no browser of its own). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Makes sure Debian's chromium is installed: as root on Debian (CI), installs it with apt-get as
 * tools/deps installs Postgres, Redis and NATS; otherwise says what to run.
 */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
    if (existsSync(CHROMIUM)) return;
  }
  throw new Error(`No browser at ${CHROMIUM}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`);
}

/** A headless chromium with a fresh profile (playwright-core gives every launch a new temporary user-data-dir). */
export function launchChromium(): Promise<Browser> {
  ensureChromium();
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** How long a live update may take to show: an event through the real services to the page. */
export const LIVE_MS = 10_000;

/** Waits until `check` holds (polled every 200 ms), failing with `what` after `ms`. */
export async function eventually(what: string, check: () => Promise<boolean>, ms = LIVE_MS): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * A page of a new browser context (kept in `contexts`, for the spec to close) logged in through
 * the app's login form at `base` (+ `hash`), once the channel list shows #general. The first load
 * registers a queue: on a busy shared machine that has taken over 30 s.
 */
export async function logInPage(
  browser: Browser,
  contexts: BrowserContext[],
  base: string,
  user: { email: string; password: string },
  { hash = '', height = 900 }: { hash?: string; height?: number } = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height } });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${base}/${hash}`);
  await page.getByRole('textbox', { name: 'Email' }).fill(user.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: 'general' }).waitFor({ timeout: 90_000 });
  return page;
}
